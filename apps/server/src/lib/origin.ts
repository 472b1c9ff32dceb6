import type { FastifyRequest } from 'fastify';

/**
 * The portal's address as the outside world reaches it, for links mailed and URLs given to others
 * (a carrier's webhook): the configured public URL, or the origin the browser used.
 */
export function originOf(request: FastifyRequest): string {
  if (request.server.config.PUBLIC_URL) return request.server.config.PUBLIC_URL.replace(/\/$/, '');
  return `${request.protocol}://${request.host}`;
}
