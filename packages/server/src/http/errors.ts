import { randomUUID } from 'node:crypto';
import { AppError, Codes, type ErrorCode, errorMessage, httpStatusFor } from '@beacon/protocol';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

export interface ErrorBody {
  code: number;
  message: string;
  fields?: Record<string, string>;
  requestId: string;
}

/** Invariant 6: the one error envelope, built here and nowhere else. */
export function errorBody(
  request: FastifyRequest,
  code: ErrorCode,
  message?: string,
  fields?: Record<string, string>,
): ErrorBody {
  return {
    code,
    message: message ?? errorMessage(code),
    ...(fields ? { fields } : {}),
    requestId: request.id,
  };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  return reply
    .status(httpStatusFor(error.code))
    .send(errorBody(request, error.code, error.message, error.fields));
}

export function errorHandler(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof AppError) {
    if (error.code === Codes.SERVER) request.log.error({ err: error }, 'server error');
    return sendError(request, reply, error);
  }
  const fe = error as FastifyError;
  if (isResponseSerializationError(fe)) {
    request.log.error({ err: fe }, 'response did not match its schema');
    return sendError(request, reply, new AppError(Codes.SERVER));
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return sendError(request, reply, new AppError(Codes.JSON));
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return sendError(request, reply, new AppError(Codes.FORM_DATA, 'Unsupported content type'));
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return sendError(request, reply, new AppError(Codes.FILE_TOO_LARGE, 'The request is too large'));
  }
  if (fe.code === 'FST_REQ_FILE_TOO_LARGE' || fe.statusCode === 413) {
    return sendError(request, reply, new AppError(Codes.FILE_TOO_LARGE));
  }
  if (fe.statusCode === 429) return sendError(request, reply, new AppError(Codes.RATE_LIMITED));
  if (isDatabaseUnavailable(error)) {
    // 503 with code 5: the client may try again; the next request reconnects by itself.
    request.log.warn({ err: error }, 'database unavailable');
    reply.header('retry-after', '5');
    return sendError(request, reply, new AppError(Codes.DATABASE));
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return sendError(request, reply, new AppError(Codes.FORM_DATA, fe.message));
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendError(request, reply, new AppError(Codes.SERVER));
}

const CLIENT_ERROR_STATUS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
};

/**
 * A request Node's HTTP parser could not read to its end (a body cut short, a malformed request
 * line or headers) never reaches a route: it gets the same envelope (16) instead of Fastify's own.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: import('node:net').Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, label] = CLIENT_ERROR_STATUS[err.code ?? ''] ?? [400, 'Bad Request'];
  const body = JSON.stringify({
    code: Codes.FORM_DATA,
    message: 'The request could not be read',
    requestId: randomUUID(),
  });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${label}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
