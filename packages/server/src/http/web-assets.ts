import path from 'node:path';
import type { FastifyReply } from 'fastify';

/** A year: the longest lifetime caches honour; a hashed name never changes content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Revalidate every time: index.html names the current hashed assets. */
const REVALIDATE = 'no-cache';

/**
 * Cache policy of the built web app: files under assets/ carry a content hash in their names
 * (Vite), so browsers keep them for good; everything else (index.html and the few unhashed files)
 * is checked with the server on each use.
 */
export function webCacheControl(filePath: string, webDist: string): string {
  const rel = path.relative(webDist, filePath).split(path.sep);
  return rel[0] === 'assets' && rel.length > 1 ? IMMUTABLE : REVALIDATE;
}

export function setWebCacheHeaders(webDist: string) {
  return (reply: FastifyReply, filePath: string) => {
    reply.header('cache-control', webCacheControl(filePath, webDist));
  };
}
