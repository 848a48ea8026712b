import {
  APIConnectionError,
  AuthenticationError,
  InsufficientCreditsError,
  Pgs,
  PollTimeoutError,
  RateLimitError,
  ValidationError,
} from '@pgs/client';

// The key comes from PGS_API_KEY, the server from PGS_BASE_URL (default http://127.0.0.1:3000).
const pgs = new Pgs();

try {
  const created = await pgs.projects.create({ idea: 'A habit tracker for remote teams' });
  console.log(`Created project ${created.projectId}`);

  const result = await pgs.projects.waitForCompletion(created.projectId, {
    maxWaitMs: 5 * 60_000,
    onProgress: (status) => {
      console.log(`in_progress: about ${Math.ceil(status.estimatedCompletionMs / 1000)} s left`);
    },
  });

  if (result.status === 'completed') {
    const { project, metadata } = result;
    console.log(`${project.name} (${project.type}), ${metadata.creditsConsumed} credits:`);
    for (const document of project.documents) console.log(`  ${document.filename}`);
  } else {
    // A failed generation is a result, not an exception; its credits were refunded.
    console.error(`Generation failed: ${result.error.message}`);
    process.exitCode = 1;
  }
} catch (error) {
  if (error instanceof AuthenticationError) {
    console.error(`Check PGS_API_KEY: ${error.message} (request ${error.requestId})`);
  } else if (error instanceof InsufficientCreditsError) {
    console.error(`Not enough credits: ${error.message}`);
  } else if (error instanceof ValidationError) {
    console.error(`Invalid request: ${error.message}`, error.invalidFields);
  } else if (error instanceof RateLimitError) {
    console.error(`Rate limited: retry in ${error.retryAfter ?? 60} s`);
  } else if (error instanceof PollTimeoutError) {
    console.error(`Still generating after ${error.waitedMs} ms: read it later with projects.get`);
  } else if (error instanceof APIConnectionError) {
    console.error(`Cannot reach the server: ${error.message}`);
  } else {
    throw error;
  }
  process.exitCode = 1;
}
