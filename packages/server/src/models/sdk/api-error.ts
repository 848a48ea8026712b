/**
 * A provider's HTTP answer inside a failure, read from the AI SDK's `APICallError`, so the
 * failure policy (failures.ts) classifies without knowing the SDK's error classes.
 */
import { APICallError } from '@ai-sdk/provider';

/** The status and headers of a provider's answer, when `error` is the SDK's API error. */
export function apiAnswerOf(
  error: unknown,
): { statusCode?: number; responseHeaders?: Record<string, string> } | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  return {
    ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
    ...(error.responseHeaders === undefined ? {} : { responseHeaders: error.responseHeaders }),
  };
}
