import { CLIENT_FAILURE_MESSAGES, Codes, errorMessage, isKnownCode } from '@beacon/protocol';

export type ApiFailureKind = 'server' | 'network' | 'noReturnCode' | 'malformed';

/** Every failed call throws this: the catalogue code (null for client-side failures), message and field errors. */
export class ApiError extends Error {
  readonly code: number | null;
  readonly kind: ApiFailureKind;
  readonly fields: Record<string, string>;
  readonly status: number;
  readonly requestId?: string;
  constructor(opts: {
    kind: ApiFailureKind;
    code: number | null;
    message: string;
    status?: number;
    fields?: Record<string, string>;
    requestId?: string;
  }) {
    super(opts.message);
    this.name = 'ApiError';
    this.kind = opts.kind;
    this.code = opts.code;
    this.status = opts.status ?? 0;
    this.fields = opts.fields ?? {};
    this.requestId = opts.requestId;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/**
 * The codes of a 401 that mean this browser is signed out: 9 (token missing), 10 (old token), 70
 * (password modified: a reset or a password change elsewhere ended every session of the account)
 * and 5003 (the session was displaced by a login elsewhere).
 */
export const SIGNED_OUT_CODES: ReadonlySet<number> = new Set([
  Codes.TOKEN_MISSING,
  Codes.TOKEN_OLD,
  Codes.PASSWORD_MODIFIED,
  Codes.LOGIN_ELSEWHERE,
]);

/** A failed answer that means the caller is signed out (401 with one of SIGNED_OUT_CODES). */
export const isSignedOutError = (e: unknown): e is ApiError =>
  e instanceof ApiError && e.status === 401 && e.code !== null && SIGNED_OUT_CODES.has(e.code);

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ClientOptions {
  baseUrl: string;
  fetch: typeof fetch;
  /** Bearer token for openapi access; null for web access (cookie). */
  getToken: () => string | null;
  /**
   * Called with each failed answer and the call's path (below baseUrl, query included) before it
   * throws: a signed-out answer (isSignedOutError) and a lost project are both read from here.
   */
  onFailure: (error: ApiError, path: string) => void;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  signal?: AbortSignal;
}

export function buildQuery(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Turns a raw answer (status + body text) into data or an ApiError (SPEC.md §7–8). */
export function interpretAnswer<T>(status: number, text: string): T {
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // A gateway error page from a proxy in front of a stopped server is a network failure.
    if (status === 502 || status === 503 || status === 504) {
      throw new ApiError({ kind: 'network', code: null, status, message: CLIENT_FAILURE_MESSAGES.network });
    }
    throw new ApiError({ kind: 'malformed', code: null, status, message: CLIENT_FAILURE_MESSAGES.malformed });
  }
  if (body === undefined && status >= 502 && status <= 504) {
    throw new ApiError({ kind: 'network', code: null, status, message: CLIENT_FAILURE_MESSAGES.network });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError({ kind: 'malformed', code: null, status, message: CLIENT_FAILURE_MESSAGES.malformed });
  }
  const env = body as Record<string, unknown>;
  if (!('code' in env) || env.code === undefined || env.code === null) {
    throw new ApiError({
      kind: 'noReturnCode',
      code: null,
      status,
      message: CLIENT_FAILURE_MESSAGES.noReturnCode,
    });
  }
  if (typeof env.code !== 'number' || !Number.isInteger(env.code)) {
    throw new ApiError({ kind: 'malformed', code: null, status, message: CLIENT_FAILURE_MESSAGES.malformed });
  }
  const code = env.code;
  if (code === 0) return env.data as T;
  const serverMessage = typeof env.message === 'string' && env.message.trim() !== '' ? env.message : null;
  const message = isKnownCode(code) ? (serverMessage ?? errorMessage(code)) : errorMessage(code);
  const fields =
    env.fields && typeof env.fields === 'object' && !Array.isArray(env.fields)
      ? Object.fromEntries(
          Object.entries(env.fields as Record<string, unknown>).filter(
            (e): e is [string, string] => typeof e[1] === 'string',
          ),
        )
      : undefined;
  throw new ApiError({
    kind: 'server',
    code,
    status,
    message,
    fields,
    requestId: typeof env.requestId === 'string' ? env.requestId : undefined,
  });
}

export function createClient(opts: ClientOptions) {
  async function send<T>(method: Method, path: string, init: RequestInit): Promise<T> {
    let res: Response;
    try {
      res = await opts.fetch(`${opts.baseUrl}${path}`, { ...init, method, credentials: 'include' });
    } catch (e) {
      if ((e as { name?: string })?.name === 'AbortError') throw e;
      throw new ApiError({ kind: 'network', code: null, message: CLIENT_FAILURE_MESSAGES.network });
    }
    let text: string;
    try {
      text = await res.text();
    } catch {
      throw new ApiError({
        kind: 'network',
        code: null,
        status: res.status,
        message: CLIENT_FAILURE_MESSAGES.network,
      });
    }
    try {
      return interpretAnswer<T>(res.status, text);
    } catch (e) {
      if (e instanceof ApiError) opts.onFailure(e, path);
      throw e;
    }
  }

  function headers(json: boolean): Record<string, string> {
    const h: Record<string, string> = { Accept: 'application/json' };
    if (json) h['Content-Type'] = 'application/json';
    const token = opts.getToken();
    if (token) h.Authorization = `Bearer ${token}`;
    return h;
  }

  function request<T>(method: Method, path: string, ro: RequestOptions = {}): Promise<T> {
    const mutating = method !== 'GET';
    return send<T>(method, `${path}${buildQuery(ro.query)}`, {
      headers: headers(mutating),
      // Mutating requests always carry a JSON body (an empty object when there is nothing to send).
      body: mutating ? JSON.stringify(ro.body ?? {}) : undefined,
      signal: ro.signal,
    });
  }

  return {
    request,
    get: <T>(path: string, ro?: RequestOptions) => request<T>('GET', path, ro),
    post: <T>(path: string, body?: unknown, ro?: RequestOptions) => request<T>('POST', path, { ...ro, body }),
    patch: <T>(path: string, body?: unknown, ro?: RequestOptions) =>
      request<T>('PATCH', path, { ...ro, body }),
    del: <T>(path: string, ro?: RequestOptions) => request<T>('DELETE', path, ro),
    /** multipart/form-data upload; the browser sets the boundary header itself. */
    upload: <T>(path: string, form: FormData) =>
      send<T>('POST', path, { headers: headers(false), body: form }),
  };
}

export type ApiClient = ReturnType<typeof createClient>;
