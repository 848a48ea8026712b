import { schemaRef } from '@pgs/contract';

/** Response schemas for the given error statuses, all the contract's error envelope. */
export function errorResponses(
  ...statuses: number[]
): Record<number, ReturnType<typeof schemaRef>> {
  return Object.fromEntries(statuses.map((status) => [status, schemaRef('ErrorResponse')]));
}
