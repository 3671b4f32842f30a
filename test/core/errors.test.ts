import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  CommunityServerError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
} from 'community-server-sdk';
import { describe, expect, it } from 'vitest';
import { clientWith, errorBody, json } from '../helpers';

/** The error a call rejects with when the service answers `response`. */
type Call = (client: ReturnType<typeof clientWith>['client']) => Promise<unknown>;

async function errorFor(response: () => Response, call: Call = (client) => client.members.get('m1')) {
  const { client, requests } = clientWith(response, { maxRetries: 0 });
  const error = await call(client).then(
    () => expect.fail('the call should have failed'),
    (e: unknown) => e,
  );
  expect(requests).toHaveLength(1);
  return error as ApiError;
}

describe('HTTP errors become typed errors', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ApiError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, ServiceUnavailableError],
  ])('status %i with the object shape → %s with code, message, details', async (status, ErrorClass) => {
    const error = await errorFor(() => json(errorBody('some_code', 'what went wrong', { field: 'x' }), status));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(CommunityServerError);
    expect(error.name).toBe(ErrorClass.name);
    expect(error).toMatchObject({ status, code: 'some_code', message: 'what went wrong', details: { field: 'x' } });
    expect(error.method).toBe('GET');
    expect(error.path).toBe('/api/v1/server/members/m1');
    expect(error.headers['content-type']).toBe('application/json');
  });

  it.each([
    [401, AuthenticationError, 'invalid or expired token'],
    [401, AuthenticationError, 'authorization header is required'],
    [403, PermissionDeniedError, 'insufficient permissions for this operation'],
  ])('status %i with the string shape {"error":"text"} → %s, code "unknown"', async (status, ErrorClass, text) => {
    const error = await errorFor(() => json({ error: text }, status));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ status, code: 'unknown', message: text, details: undefined });
  });

  it('401 and 403 with the object shape keep their code', async () => {
    const error = await errorFor(() => json(errorBody('token_expired', 'invalid or expired token'), 401));
    expect(error).toMatchObject({ status: 401, code: 'token_expired', message: 'invalid or expired token' });
  });

  it('a 502 HTML page becomes InternalServerError with the status text and the page as details', async () => {
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    const error = await errorFor(
      () => new Response(html, { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: 'unknown', message: '502 Bad Gateway', details: html });
  });

  it('a plain-text 500 keeps its text as the message', async () => {
    const error = await errorFor(() => new Response('database on fire', { status: 500 }));
    expect(error).toMatchObject({ status: 500, code: 'unknown', message: 'database on fire' });
  });

  it('an empty error body still yields status, code and a message', async () => {
    const error = await errorFor(() => new Response(null, { status: 404, statusText: 'Not Found' }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'unknown', message: '404 Not Found', details: undefined });
  });

  it('JSON that is not an error shape becomes details', async () => {
    const error = await errorFor(() => json({ oops: true }, 400));
    expect(error).toMatchObject({ code: 'unknown', message: '400', details: { oops: true } });
  });

  it('an error object with a non-string code or message falls back safely', async () => {
    const error = await errorFor(() => json({ error: { code: 42, message: null } }, 400));
    expect(error).toMatchObject({ code: 'unknown', message: '400' });
  });

  it('a 429 exposes retryAfter in seconds, from a number or an HTTP date', async () => {
    const seconds = await errorFor(() => json(errorBody('rate_limited', 'slow down'), 429, { 'retry-after': '120' }));
    expect((seconds as RateLimitError).retryAfter).toBe(120);
    const date = new Date(Date.now() + 90_000).toUTCString();
    const fromDate = await errorFor(() => json(errorBody('rate_limited', 'slow down'), 429, { 'retry-after': date }));
    expect((fromDate as RateLimitError).retryAfter).toBeGreaterThanOrEqual(88);
    expect((fromDate as RateLimitError).retryAfter).toBeLessThanOrEqual(90);
    const none = await errorFor(() => json(errorBody('rate_limited', 'slow down'), 429));
    expect((none as RateLimitError).retryAfter).toBeNull();
  });

  it('/health 503 text/plain → ServiceUnavailableError carrying the text', async () => {
    const error = await errorFor(
      () => new Response('cache unavailable', { status: 503, headers: { 'content-type': 'text/plain' } }),
      (client) => client.health.check(),
    );
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, message: 'cache unavailable', path: '/health' });
  });

  it('/readyz 503 keeps the readiness body (the 200 shape) as details', async () => {
    const body = { status: 'not ready', database: false, cache: true };
    const error = await errorFor(
      () => json(body, 503),
      (client) => client.health.ready(),
    );
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, code: 'unknown', details: body });
  });
});
