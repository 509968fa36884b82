// Writes examples/response.json: a trimmed slice of citm_catalog.json (a ticketing API's event
// catalog, from miloyip/nativejson-benchmark data/, MIT; 1.6 MiB). Kept: the first 3 performances,
// the events they belong to and, of each name map, the entries those reference; every key in the
// source's order, every value as the source has it.
// Usage: node examples/make-response.mjs path/to/citm_catalog.json > examples/response.json
import { readFileSync } from 'node:fs';

const src = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const performances = src.performances.slice(0, 3);
const used = { area: new Set(), audience: new Set(), seat: new Set(), event: new Set() };
for (const p of performances) {
  used.event.add(String(p.eventId));
  for (const price of p.prices) {
    used.audience.add(String(price.audienceSubCategoryId));
    used.seat.add(String(price.seatCategoryId));
  }
  for (const c of p.seatCategories) {
    used.seat.add(String(c.seatCategoryId));
    for (const a of c.areas) used.area.add(String(a.areaId));
  }
}
const events = Object.fromEntries(Object.entries(src.events).filter(([id]) => used.event.has(id)));
const topics = new Set(Object.values(events).flatMap((e) => e.topicIds.map(String)));
const subTopics = new Set(Object.values(events).flatMap((e) => e.subTopicIds.map(String)));
const pick = (map, ids) => Object.fromEntries(Object.entries(map).filter(([id]) => ids.has(id)));
const out = {
  areaNames: pick(src.areaNames, used.area),
  audienceSubCategoryNames: pick(src.audienceSubCategoryNames, used.audience),
  blockNames: src.blockNames,
  events,
  performances,
  seatCategoryNames: pick(src.seatCategoryNames, used.seat),
  subTopicNames: pick(src.subTopicNames, subTopics),
  subjectNames: src.subjectNames,
  topicNames: pick(src.topicNames, topics),
  topicSubTopics: pick(src.topicSubTopics, topics),
  venueNames: src.venueNames,
};
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
