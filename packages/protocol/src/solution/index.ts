export * from './generator.ts';
export * from './planning.ts';
