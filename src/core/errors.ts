/**
 * Every error the SDK throws (`error-classes.ts`), and `responseError`: the typed error of an
 * answer with a secret replaced at any depth, for the SDK's other clients of an HTTP API
 * (`connectMock`, with its admin token). The client's own calls import `error-classes.ts`.
 * @module
 */
import { answerError, type ApiError, type RequestTarget } from './error-classes';
import { redactError } from './redact';

export * from './error-classes';

/**
 * The typed error of a non-2xx answer to `target`: its body read whatever its shape, its class by
 * status, every occurrence of `secret` (`connectMock`'s admin token) replaced, at any depth.
 */
export const responseError = (response: Response, body: string, target: RequestTarget, secret?: string): ApiError =>
  redactError(answerError(response, body, target), secret);
