import type { ConformanceCheck, Task, Trace, TraceCoverage } from '@pgs/client';
import { useEffect, useState } from 'preact/hooks';
import { ProblemRetry, StatusLine } from '../components.tsx';
import { type CodeCell, codeCells, codeSummary } from '../conformance.ts';
import { deliveryByRequirement, deliveryCell, type RequirementDelivery } from '../delivery.ts';
import { useSession } from '../hooks.ts';
import { describeError, type Problem } from '../messages.ts';
import {
  COVERAGE_COLUMNS,
  findingGroups,
  findingsSummary,
  gapsOf,
  priorityLabel,
  whereOf,
} from '../trace.ts';

/** The plan as the matrix's Delivery column reads it (see usePlan). */
export interface PlanDelivery {
  /** The tasks, once read: delivery is computed from them when the trace has no `progress`. */
  tasks: Task[] | undefined;
  /** Changes to the plan seen on the page: a trace with `progress` is read again on each. */
  changes: number;
}

/**
 * A completed project's trace (`projects.trace()`): the coverage matrix of its functional
 * requirements (criteria, stories, components, tasks; an empty cell reads "Gap" and is
 * highlighted), the totals, and the findings of the checks by severity. Read once when the
 * section is shown; a completed revision's trace never changes. `revision` reads that
 * revision's graph instead of the current one's. With `plan` (the current revision), the
 * matrix has a Delivery column: the trace's `progress` when the server sends it (read again
 * when the plan changes, as it is live), else computed from the plan's tasks.
 *
 * @example
 * <TraceSection projectId={status.projectId} revision={2} />
 */
export function TraceSection({
  projectId,
  revision,
  plan,
}: {
  projectId: string;
  revision?: number | undefined;
  plan?: PlanDelivery | undefined;
}) {
  const { pgs, signOut } = useSession();
  const [trace, setTrace] = useState<Trace | undefined>(undefined);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);

  // `attempt` (Try again) re-runs the same request.
  useEffect(() => {
    const controller = new AbortController();
    setProblem(undefined);
    pgs.projects
      .trace(projectId, { signal: controller.signal, revision })
      .then(setTrace, (error) => {
        if (controller.signal.aborted) return;
        const described = describeError(error);
        if (described.signOut) signOut(described);
        setProblem(described);
      });
    return () => controller.abort();
  }, [pgs, projectId, revision, signOut, attempt]);

  // The latest conformance check (docs/conformance.md): the trace carries its totals, the
  // check its per-requirement status. A check that cannot be read leaves the matrix as it is.
  const checkId = trace?.conformance?.checkId;
  const [check, setCheck] = useState<ConformanceCheck | undefined>(undefined);
  useEffect(() => {
    if (checkId === undefined) return;
    const controller = new AbortController();
    pgs.projects.conformance
      .get(projectId, checkId, { signal: controller.signal })
      .then(setCheck, () => {});
    return () => controller.abort();
  }, [pgs, projectId, checkId]);

  // Delivery is live: a trace that carries it is read again, quietly, when the plan changes.
  const live = trace?.progress !== undefined;
  const changes = plan?.changes ?? 0;
  useEffect(() => {
    if (!live || changes === 0) return;
    const controller = new AbortController();
    pgs.projects.trace(projectId, { signal: controller.signal }).then(setTrace, () => {
      // The matrix read before stays; the next change or a reload tries again.
    });
    return () => controller.abort();
  }, [pgs, projectId, live, changes]);

  return (
    <section class="card" aria-labelledby="trace-heading">
      <h2 id="trace-heading">Trace</h2>
      <p class="hint">
        How each functional requirement (FR-n) is reached by its acceptance criteria, the user
        stories, the architecture's components and the plan's tasks, as read from the documents. A
        gap is a column where nothing reaches the requirement.
        {plan &&
          " Delivery counts the plan's tasks done of the tasks serving the requirement (obsolete ones count nowhere), as they are now."}
      </p>
      <StatusLine text={trace === undefined && problem === undefined ? 'Loading the trace…' : ''} />
      {problem && <ProblemRetry problem={problem} onRetry={() => setAttempt((n) => n + 1)} />}
      {trace && (
        <TraceView
          trace={trace}
          delivery={plan && deliveryByRequirement(trace, plan.tasks)}
          withDelivery={plan !== undefined}
          check={check}
        />
      )}
    </section>
  );
}

function TraceView({
  trace,
  delivery,
  withDelivery,
  check,
}: {
  trace: Trace;
  delivery: ReadonlyMap<string, RequirementDelivery> | undefined;
  withDelivery: boolean;
  check: ConformanceCheck | undefined;
}) {
  const { requirements, totals } = trace.coverage;
  const withGaps = requirements.filter((fr) => gapsOf(fr).length > 0).length;
  return (
    <>
      <h3>Coverage</h3>
      {requirements.length === 0 ? (
        <p>The documents define no functional requirement (FR-n).</p>
      ) : (
        <>
          <p data-testid="trace-summary">
            {requirements.length} {requirements.length === 1 ? 'requirement' : 'requirements'},{' '}
            {withGaps === 0 ? 'none with a gap' : `${withGaps} with a gap`}. Must requirements with
            a story: {totals.mustsWithStory} of {totals.musts}.
          </p>
          {check && <p data-testid="code-summary">{codeSummary(check)}</p>}
          <CoverageMatrix
            coverage={trace.coverage}
            delivery={delivery}
            withDelivery={withDelivery}
            code={check && codeCells(check)}
          />
        </>
      )}
      <h3>Findings</h3>
      <p>{findingsSummary(trace.findings)}</p>
      {findingGroups(trace.findings).map((group) => (
        <section
          key={group.severity}
          class="finding-group"
          aria-labelledby={`findings-${group.severity}`}
        >
          <h4 id={`findings-${group.severity}`}>
            <span class={`severity severity-${group.severity}`}>{group.label}</span> (
            {group.findings.length})
          </h4>
          <ul class="findings">
            {group.findings.map((finding, index) => (
              // A finding has no id of its own; the list never reorders.
              <li key={index}>
                <code class="rule">{finding.rule}</code> {finding.message}
                {whereOf(finding) && <span class="where"> ({whereOf(finding)})</span>}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

/** What the matrix shows: the trace's coverage, and delivery and code status when read. */
interface MatrixProps {
  coverage: TraceCoverage;
  delivery: ReadonlyMap<string, RequirementDelivery> | undefined;
  withDelivery: boolean;
  /** Each requirement's status in the latest conformance check, when there is one. */
  code: ReadonlyMap<string, CodeCell> | undefined;
}

function CoverageMatrix(props: MatrixProps) {
  const { coverage, delivery, withDelivery, code } = props;
  const { requirements } = coverage;
  return (
    // Focusable and labelled: on a phone the matrix scrolls sideways, by keyboard too
    // (axe's scrollable-region-focusable), as the documents' tables do.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus
    <section class="trace-scroll" tabIndex={0} aria-label="Coverage matrix">
      <table class="trace-matrix">
        <caption>Functional requirements and what reaches them</caption>
        <thead>
          <tr>
            <th scope="col">Requirement</th>
            <th scope="col">Priority</th>
            {COVERAGE_COLUMNS.map((column) => (
              <th scope="col" key={column.key}>
                {column.label}
              </th>
            ))}
            {withDelivery && <th scope="col">Delivery</th>}
            {code && <th scope="col">Code</th>}
          </tr>
        </thead>
        <tbody>
          {requirements.map((fr) => (
            <tr key={fr.id}>
              <th scope="row">
                <span class="trace-id">{fr.id}</span> {fr.title}
              </th>
              <td>{priorityLabel(fr.priority)}</td>
              {COVERAGE_COLUMNS.map((column) => (
                <CoverageCell key={column.key} items={fr[column.key]} />
              ))}
              {withDelivery && <DeliveryCell row={delivery?.get(fr.id)} loading={!delivery} />}
              {code && <CodeStatusCell cell={code.get(fr.id)} />}
            </tr>
          ))}
        </tbody>
        <CoverageTotals {...props} />
      </table>
    </section>
  );
}

/** What reaches a requirement in one column of the matrix, or "Gap". */
function CoverageCell({ items }: { items: readonly string[] }) {
  if (items.length === 0) return <td class="gap">Gap</td>;
  return (
    <td>
      <ul class="trace-items">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </td>
  );
}

/** The matrix's footer: how many requirements each column reaches, delivers and tests. */
function CoverageTotals({ coverage, delivery, withDelivery, code }: MatrixProps) {
  const { requirements, totals } = coverage;
  const delivered = requirements.filter((fr) => delivery?.get(fr.id)?.delivered).length;
  return (
    <tfoot>
      <tr>
        <th scope="row">Requirements reached</th>
        <td />
        {COVERAGE_COLUMNS.map((column) => (
          <td key={column.key}>
            {totals[column.total]} of {totals.frs}
          </td>
        ))}
        {withDelivery && (
          <td>{delivery ? `${delivered} of ${totals.frs} delivered` : 'Loading…'}</td>
        )}
        {code && (
          <td>
            {[...code.values()].filter((cell) => cell.status === 'tested').length} of {totals.frs}{' '}
            tested
          </td>
        )}
      </tr>
    </tfoot>
  );
}

function DeliveryCell({
  row,
  loading,
}: {
  row: RequirementDelivery | undefined;
  loading: boolean;
}) {
  if (loading) return <td>Loading…</td>;
  const cell = deliveryCell(row);
  return (
    <td class={cell.delivered ? 'delivery delivered' : 'delivery'}>
      {cell.delivered && <span aria-hidden="true">✓ </span>}
      {cell.text}
      {cell.criteria && <span class="delivery-criteria">{cell.criteria}</span>}
    </td>
  );
}

function CodeStatusCell({ cell }: { cell: CodeCell | undefined }) {
  // A requirement the check did not know (added by a later revision): nothing to say.
  if (cell === undefined) return <td>-</td>;
  return (
    // Missing is highlighted as a gap is: what the spec asks and the code does not show.
    <td class={cell.status === 'missing' ? 'gap' : undefined}>
      {cell.text}
      {cell.detail && <span class="delivery-criteria">{cell.detail}</span>}
    </td>
  );
}
