export { type Config, loadConfig } from './config.ts';
export { type RunningServer, startServer } from './server.ts';
