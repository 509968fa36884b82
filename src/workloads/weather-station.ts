import { fakerEn } from './faker.js';
import type { Workload } from './types.js';
import type { SchemaNode } from './schema.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * A current-conditions response from a weather-station cloud API (shaped after the WeatherLink
 * v2 `/current` response the on-device .NET study parsed: about 409 bytes, nullable fields that
 * are null, some numbers delivered as strings). Deserializing into the typed model turns the
 * numeric strings into numbers and keeps nulls null, like .NET's
 * `JsonNumberHandling.AllowReadingFromString`.
 */
const num = (fromString = false, nullable = false): SchemaNode => ({ type: 'number', fromString, nullable });

const record: SchemaNode = {
  type: 'object',
  properties: {
    ts: { type: 'number', integer: true },
    temp: num(true),
    hum: num(true),
    dew_point: num(),
    wind_speed_last: num(true),
    wind_dir_last: { type: 'number', integer: true },
    wind_chill: num(false, true),
    rain_rate_last_in: num(),
    rainfall_daily_in: num(true),
    bar_sea_level: num(true),
    bar_trend: num(false, true),
    uv_index: num(false, true),
    solar_rad: num(false, true),
  },
};

const schema: SchemaNode = {
  type: 'object',
  properties: {
    station_id: { type: 'number', integer: true },
    station_name: { type: 'string' },
    generated_at: { type: 'number', integer: true },
    sensors: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          lsid: { type: 'number', integer: true },
          sensor_type: { type: 'number', integer: true },
          data: { type: 'array', items: record },
        },
      },
    },
    error: { type: 'string', nullable: true },
  },
};

/** Numeric value written as the API writes it: a string with a fixed number of decimals. */
const str = (n: number, digits: number) => n.toFixed(digits);

const workload: Workload = {
  id: 'weather-station',
  description: 'One ~409-byte weather-station current-conditions response; nullable fields, numbers as strings',
  sizes: [1],
  defaultSizes: [1],
  shapes: ['single'],
  schema,
  build(_size, seed) {
    const f = fakerEn();
    f.seed(seed);
    const ts = 1_764_000_000 + f.number.int({ min: 0, max: 86_400 });
    const temp = f.number.float({ min: -10, max: 35, fractionDigits: 1 });
    return {
      station_id: f.number.int({ min: 100_000, max: 999_999 }),
      station_name: f.location.city(),
      generated_at: ts + 12,
      sensors: [
        {
          lsid: f.number.int({ min: 100_000, max: 999_999 }),
          sensor_type: 45,
          data: [
            {
              ts,
              temp: str(temp, 1),
              hum: str(f.number.float({ min: 20, max: 100, fractionDigits: 1 }), 1),
              dew_point: f.number.float({ min: -15, max: 25, fractionDigits: 1 }),
              wind_speed_last: str(f.number.float({ min: 0, max: 30, fractionDigits: 1 }), 1),
              wind_dir_last: f.number.int({ min: 0, max: 359 }),
              wind_chill: null,
              rain_rate_last_in: 0,
              rainfall_daily_in: str(f.number.float({ min: 0, max: 2, fractionDigits: 2 }), 2),
              bar_sea_level: str(f.number.float({ min: 29, max: 31, fractionDigits: 3 }), 3),
              bar_trend: null,
              uv_index: null,
              solar_rad: null,
            },
          ],
        },
      ],
      error: null,
    };
  },
  toModel(unit) {
    const doc = structuredClone(unit) as { sensors: { data: Record<string, unknown>[] }[] };
    for (const sensor of doc.sensors) {
      for (const rec of sensor.data) {
        for (const key of ['temp', 'hum', 'wind_speed_last', 'rainfall_daily_in', 'bar_sea_level']) {
          if (typeof rec[key] === 'string') rec[key] = Number(rec[key]);
        }
      }
    }
    return doc;
  },
};

export default deepFreeze(workload);
