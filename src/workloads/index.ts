import { createRegistry } from '../registry/registry.js';
import type { Workload } from './types.js';

/**
 * The built-in workloads, one file each. Adding a workload is adding its file and one line here.
 */
export const workloads = createRegistry<Workload>('workload', {
  'weather-station': () => import('./weather-station.js'),
  users: () => import('./users.js'),
  'users-settings': () => import('./users-settings.js'),
  orders: () => import('./orders.js'),
  company: () => import('./company.js'),
  // .NET-only variants (Workload.variantOf): measured when --workload names them
  'users-record': () => import('./users-record.js'),
  'users-settings-record': () => import('./users-settings-record.js'),
});
