import type { GateFinding, PartProvenance, Provenance } from '@pgs/client';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { documentCost, projectCost } from '../cost.ts';
import { useSession } from '../hooks.ts';
import { describeError, type Problem } from '../messages.ts';
import { authorship, qualityLine, worstFirst, writingLine } from '../provenance.ts';
import { severityLabel } from '../trace.ts';

/**
 * A project's provenance (`projects.provenance()`), of revision `revision` when given (else
 * the current one), read once for the revision shown: a completed revision's parts never
 * change. A failed read is returned as its problem, and `retry` reads it again; a refused
 * key signs out.
 *
 * @example
 * const { provenance, problem, retry } = useProvenance(status.projectId, 2);
 */
export function useProvenance(
  projectId: string,
  revision?: number | undefined,
): {
  provenance: Provenance | undefined;
  problem: Problem | undefined;
  retry: () => void;
} {
  const { pgs, signOut } = useSession();
  const [provenance, setProvenance] = useState<Provenance | undefined>(undefined);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);
  // `attempt` (Try again) re-runs the same request.
  useEffect(() => {
    const controller = new AbortController();
    setProvenance(undefined);
    setProblem(undefined);
    pgs.projects
      .provenance(projectId, { signal: controller.signal, revision })
      .then(setProvenance, (error) => {
        if (controller.signal.aborted) return;
        const described = describeError(error);
        if (described.signOut) signOut(described);
        setProblem(described);
      });
    return () => controller.abort();
  }, [pgs, projectId, revision, signOut, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { provenance, problem, retry };
}

/**
 * Says plainly that no AI model wrote the documents, and how an operator configures one.
 * Shown when every part of the project is the offline engine's.
 *
 * @example
 * {authorship(provenance).kind === 'offline' && <OfflineNotice />}
 */
export function OfflineNotice() {
  return (
    <div
      class="notice"
      role="note"
      aria-labelledby="offline-notice-title"
      data-testid="offline-notice"
    >
      <p id="offline-notice-title" class="notice-title">
        Drafted by PGS's offline engine, not by an AI model
      </p>
      <p>
        These documents were written from the idea by rules and templates, with no AI model. To have
        a model write them, whoever runs the PGS server sets <code>PGS_MODELS</code> (
        <code>PGS_TEST_MODELS</code> for test keys), for example to <code>openai:gpt-4.1-mini</code>{' '}
        with <code>OPENAI_API_KEY</code>, or to <code>anthropic:claude-sonnet-4-5</code> with{' '}
        <code>ANTHROPIC_API_KEY</code>, and restarts it; then generate the project again. The PGS
        README's section "Generating with AI models" lists every provider.
      </p>
    </div>
  );
}

/**
 * What the quality gate still finds in one part: a line counting the findings by severity,
 * in words, that opens the list of them. Nothing when the gate found nothing.
 *
 * @example
 * <QualityLine findings={part.findings} />
 */
export function QualityLine({ findings }: { findings: readonly GateFinding[] }) {
  const line = qualityLine(findings);
  if (line === undefined) return null;
  return (
    <details class="quality">
      <summary>{line}</summary>
      <ul class="findings">
        {worstFirst(findings).map((finding, index) => (
          // A finding has no id of its own; the list never reorders.
          <li key={index}>
            <span class={`severity severity-${finding.severity}`}>
              {severityLabel(finding.severity)}
            </span>{' '}
            <code class="rule">{finding.rule}</code> {finding.message}
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * What the project's model calls cost (docs/cost.md): the dollars, the input tokens with the
 * share the prompt cache served, the output; nothing in model fees for the offline engine.
 * An unknown cost says why and who can set prices. Nothing when no part is recorded.
 *
 * @example
 * {provenance && <ProjectCost provenance={provenance} />}
 */
export function ProjectCost({ provenance }: { provenance: Provenance }) {
  const summary = projectCost(provenance, authorship(provenance));
  if (summary === undefined) return null;
  return (
    <>
      <p class="cost" data-testid="project-cost">
        {summary.line}
      </p>
      {summary.reason === 'unpriced' && (
        <p class="hint">
          The cost is unknown because a model it called has no price (or it ran before PGS recorded
          costs): whoever runs the PGS server sets prices with <code>PGS_MODEL_PRICES</code>.
        </p>
      )}
    </>
  );
}

/**
 * One document's tokens and cost, in a small line.
 *
 * @example
 * <DocumentCost part={documentPart(provenance, document.type)} />
 */
export function DocumentCost({ part }: { part: PartProvenance | undefined }) {
  if (part === undefined) return null;
  return (
    <p class="doc-cost" data-testid="document-cost">
      {documentCost(part)}
    </p>
  );
}

/**
 * How the project was asked to be written: its language (saying so when the offline engine
 * wrote English instead), requirement style and house conventions' version.
 *
 * @example
 * {provenance && <WritingLine provenance={provenance} />}
 */
export function WritingLine({ provenance }: { provenance: Provenance }) {
  return (
    <p class="cost" data-testid="project-writing">
      {writingLine(provenance)}
    </p>
  );
}
