/** What every provider test does around its fake server, written once: the expected rejection, giving up after retries, a cancel mid-request. */
import { expect, onTestFinished } from 'vitest';
import { CancelledError, ProviderError } from '../errors.js';
import type { FakeServer, ScriptedResponse } from './fake-http-server.js';

/** Closes a fake server when the test that started it finishes, passed or failed; returns the same server. */
export function closedAfterTest<Server extends Pick<FakeServer, 'close'>>(server: Server): Server {
  onTestFinished(() => server.close());
  return server;
}

/** The error a promise rejects with, after checking it is of the class the test expects (it fails if the promise resolves). */
export async function rejectionOf<Failure extends Error>(
  promise: Promise<unknown>,
  kind: abstract new (...args: never[]) => Failure,
): Promise<Failure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(kind);
  return error as Failure;
}

/**
 * Answers three attempts with the same server error and returns the ProviderError the call ends with, after checking
 * that it came after the three attempts the retry policy makes and that it says a later try may work (retryable).
 */
export async function failureAfterThreeAttempts(
  fake: Pick<FakeServer, 'setNext' | 'requests'>,
  answer: ScriptedResponse,
  call: () => Promise<unknown>,
): Promise<ProviderError> {
  fake.setNext(answer, answer, answer);
  const error = await rejectionOf(call(), ProviderError);
  expect(error.retryable).toBe(true);
  expect(fake.requests).toHaveLength(3);
  return error;
}

/**
 * Lets the fake hang on the next request, aborts the call 100 ms after it starts and expects it to reject with
 * CancelledError: a cancelled job must not wait for a provider that never answers.
 */
export async function expectCancelledMidRequest(
  fake: Pick<FakeServer, 'setNext'>,
  call: (signal: AbortSignal) => Promise<unknown>,
): Promise<void> {
  fake.setNext({ status: 200, hang: true });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  await expect(call(controller.signal)).rejects.toBeInstanceOf(CancelledError);
}
