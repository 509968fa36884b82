import { workerSuite } from './worker-suite.js';

/** The C# worker on Debian's Mono (skipped with the reason where Mono or its GAC assemblies are missing). */
await workerSuite('mono');
