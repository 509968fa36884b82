// hostile10 calibration: every built-in serializer under another id ("h-<id>"), so each runs as a config's
// serializer does (in its own process, paired with the json baseline) and its baseline's other-threads share can be
// compared with json's own case. Honest by construction: the built-in adapters themselves.
import { serializers } from '../../build/src/serializers/index.js';
const out = [];
for (const id of serializers.ids) {
  const a = await serializers.load(id);
  out.push(Object.assign(Object.create(null), { ...a, id: `h-${id}` }));
}
export default { serializers: out };
