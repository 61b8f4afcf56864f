/**
 * The database schema, one file per domain under ./schema/ (drizzle.config reads this index, and
 * every module imports tables from here).
 */
export * from './schema/accounts.ts';
export * from './schema/alarms.ts';
export * from './schema/audit.ts';
export * from './schema/backups.ts';
export * from './schema/clients.ts';
export * from './schema/commands.ts';
export * from './schema/config.ts';
export * from './schema/devices.ts';
export * from './schema/identity.ts';
export * from './schema/jobs.ts';
export * from './schema/logs.ts';
export * from './schema/mail.ts';
export * from './schema/maintenance.ts';
export * from './schema/network.ts';
export * from './schema/overview.ts';
export * from './schema/projects.ts';
export * from './schema/rf.ts';
export * from './schema/solutions.ts';
export * from './schema/stats.ts';
export * from './schema/topology.ts';
export * from './schema/wifi.ts';
export * from './schema/wifi-map.ts';
