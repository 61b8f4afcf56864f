export * from './asyncapi.ts';
export * from './commands.ts';
export * from './config.ts';
export * from './messages.ts';
export * from './models.ts';
export * from './redact.ts';
export * from './secret.ts';
export * from './topics.ts';
