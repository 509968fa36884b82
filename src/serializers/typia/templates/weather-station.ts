import typia, { type tags } from 'typia';

/** An integer field (typia checks `Number.isInteger`, as the other validate-class adapters do). */
type Int = number & tags.Type<'int64'>;

/**
 * typia template for the `weather-station` workload (shape `single`): the wire shape of one
 * current-conditions response — numeric strings stay `string`, nullable fields are `T | null`.
 * `npm run build` runs `typia generate`, which writes the compiled functions to ../generated/.
 */

/** One sensor reading as it stands on the wire. */
export interface WeatherRecord {
  ts: Int;
  temp: string;
  hum: string;
  dew_point: number;
  wind_speed_last: string;
  wind_dir_last: Int;
  wind_chill: number | null;
  rain_rate_last_in: number;
  rainfall_daily_in: string;
  bar_sea_level: string;
  bar_trend: number | null;
  uv_index: number | null;
  solar_rad: number | null;
}

/** One sensor with its readings. */
export interface WeatherSensor {
  lsid: Int;
  sensor_type: Int;
  data: WeatherRecord[];
}

/** The whole response document. */
export interface WeatherStation {
  station_id: Int;
  station_name: string;
  generated_at: Int;
  sensors: WeatherSensor[];
  error: string | null;
}

/** Document → JSON text. */
export const stringify = typia.json.createStringify<WeatherStation>();
/** JSON text → document, type-checked; throws TypeGuardError. */
export const assertParse = typia.json.createAssertParse<WeatherStation>();
