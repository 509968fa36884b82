import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';

let loaded: Faker | undefined;

/**
 * @faker-js/faker's English instance, imported on the first call (Node's `require` of an ES module,
 * synchronous, as `build()` is). Only a workload's build() calls it, on the host; the measuring
 * worker loads a workload for its schema, model and text check and never builds, so it no longer
 * pays faker's import (0.15–0.26 s per worker process on a loaded 2-core machine), and the worker
 * bundles leave faker out.
 */
export function fakerEn(): Faker {
  loaded ??= (createRequire(import.meta.url)('@faker-js/faker/locale/en') as { faker: Faker }).faker;
  return loaded;
}
