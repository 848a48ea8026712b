import { NotFoundError } from '@pgs/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { PageHeading, ProblemAlert, ProblemRetry, StatusLine } from '../components.tsx';
import {
  COMMON_COMPLIANCE,
  type ConventionsForm,
  type ConventionsVersion,
  conventionsBody,
  formOf,
  versionText,
} from '../conventions.ts';
import { DETAILS } from '../detail.ts';
import { useSession } from '../hooks.ts';
import { describeError, type Problem } from '../messages.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (date: Date) => dateFormat.format(date);

type ListField = 'required' | 'forbidden' | 'compliance' | 'naming';

/**
 * The house conventions of the key's account in its mode (docs/conventions.md): free
 * markdown, the stack required and forbidden, compliance, language, requirement style,
 * detail, naming rules and extra sections. Every save writes a new version, which every new
 * project follows; a field left empty is a convention not set.
 *
 * @example
 * <ConventionsScreen />
 */
export function ConventionsScreen() {
  const { pgs, credits, signOut } = useSession();
  const [version, setVersion] = useState<ConventionsVersion | undefined | null>(null);
  const [form, setForm] = useState<ConventionsForm>(formOf(undefined));
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [saveProblem, setSaveProblem] = useState<Problem | undefined>(undefined);
  const [reads, setReads] = useState(0);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');
  const inFlight = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    setProblem(undefined);
    pgs.conventions.get({ signal: controller.signal }).then(
      (read) => {
        setVersion(read);
        setForm(formOf(read));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // 404 while none are set: an empty form, not a problem.
        if (error instanceof NotFoundError) {
          setVersion(undefined);
          setForm(formOf(undefined));
          return;
        }
        const described = describeError(error);
        if (described.signOut) signOut(described);
        setProblem(described);
      },
    );
    return () => controller.abort();
  }, [pgs, signOut, reads]);

  const set = (field: keyof ConventionsForm) => (event: { currentTarget: { value: string } }) =>
    setForm({ ...form, [field]: event.currentTarget.value });

  const save = async (event: Event) => {
    event.preventDefault();
    if (inFlight.current) return;
    const built = conventionsBody(form);
    if (!built.ok) {
      setSaveProblem({ kind: 'invalid', text: built.problem });
      return;
    }
    inFlight.current = true;
    setBusy(true);
    setSaveProblem(undefined);
    setNote('');
    try {
      const saved = await pgs.conventions.put(built.body);
      setVersion(saved);
      setForm(formOf(saved));
      setNote(`Saved as version ${saved.version}.`);
    } catch (error) {
      const described = describeError(error);
      if (described.signOut) signOut(described);
      setSaveProblem(described);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const list = (id: ListField, label: string, hint: string) => (
    <div>
      <label for={`conventions-${id}`}>{label}</label>
      <textarea
        id={`conventions-${id}`}
        rows={3}
        aria-describedby={`conventions-${id}-hint`}
        value={form[id]}
        onInput={set(id)}
      />
      <p id={`conventions-${id}-hint`} class="hint">
        {hint}
      </p>
    </div>
  );

  const section = (index: number, field: 'title' | 'content', value: string) =>
    setForm({
      ...form,
      sections: form.sections.map((each, at) =>
        at === index ? { ...each, [field]: value } : each,
      ),
    });

  return (
    <>
      <PageHeading>Conventions</PageHeading>
      <p>
        What every new project of this account follows in{' '}
        {credits ? `${credits.mode} mode` : "this key's mode"}: your stack, the compliance it must
        meet, the documents' language and style, naming rules and sections of your own. A project
        records the version it followed; its revisions keep to it.
      </p>
      {problem && <ProblemRetry problem={problem} onRetry={() => setReads((n) => n + 1)} />}
      <StatusLine text={version === null && !problem ? 'Loading…' : ''} />
      {version !== null && (
        <form class="card" onSubmit={save} aria-labelledby="conventions-heading">
          <h2 id="conventions-heading">House conventions</h2>
          <p data-testid="conventions-version">{versionText(version, formatDate)}</p>
          <div class="row">
            {list(
              'required',
              'Required technologies',
              'One a line or separated by commas, e.g. PostgreSQL.',
            )}
            {list(
              'forbidden',
              'Forbidden technologies',
              'Never proposed unless the idea itself names one.',
            )}
          </div>
          {list(
            'compliance',
            'Compliance',
            `Standards the documents must address, e.g. ${COMMON_COMPLIANCE.join(', ')}.`,
          )}
          <div class="row">
            <div>
              <label for="conventions-language">Language</label>
              <input
                id="conventions-language"
                type="text"
                autoComplete="off"
                aria-describedby="conventions-language-hint"
                value={form.language}
                onInput={set('language')}
              />
              <p id="conventions-language-hint" class="hint">
                A BCP 47 tag (de, fr, pt-BR); empty for English. The offline engine writes English
                and says so.
              </p>
            </div>
            <div>
              <label for="conventions-detail">Detail</label>
              <select id="conventions-detail" value={form.detail} onChange={set('detail')}>
                <option value="">Not set (Standard)</option>
                {DETAILS.map((level) => (
                  <option key={level.value} value={level.value}>
                    {level.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <fieldset class="choices">
            <legend>Requirement style</legend>
            {(
              [
                ['', 'Not set (EARS)', 'Acceptance criteria as the server writes them by default.'],
                ['ears', 'EARS', '"When …, the system shall …"'],
                ['gherkin', 'Gherkin', 'Given / When / Then scenarios, keeping their FR-n.m IDs.'],
              ] as const
            ).map(([value, label, hint]) => (
              <div class="choice" key={value}>
                <input
                  id={`conventions-style-${value || 'none'}`}
                  type="radio"
                  name="requirementStyle"
                  value={value}
                  checked={form.requirementStyle === value}
                  onChange={() => setForm({ ...form, requirementStyle: value })}
                  aria-describedby={`conventions-style-${value || 'none'}-hint`}
                />
                <label for={`conventions-style-${value || 'none'}`}>{label}</label>
                <p id={`conventions-style-${value || 'none'}-hint`} class="hint">
                  {hint}
                </p>
              </div>
            ))}
          </fieldset>
          {list('naming', 'Naming rules', 'One rule a line, e.g. "Tables are plural snake_case".')}
          <label for="conventions-markdown">Anything else</label>
          <textarea
            id="conventions-markdown"
            rows={5}
            aria-describedby="conventions-markdown-hint"
            value={form.markdown}
            onInput={set('markdown')}
          />
          <p id="conventions-markdown-hint" class="hint">
            Your rules in your own words (markdown), given to every document as data.
          </p>
          <h3>Sections of your own</h3>
          {form.sections.length === 0 && (
            <p class="hint">None: the documents keep their sections.</p>
          )}
          <ol class="answers">
            {form.sections.map((each, index) => (
              <li class="answer" key={index}>
                <label for={`section-${index}-title`}>Section {index + 1} title</label>
                <input
                  id={`section-${index}-title`}
                  type="text"
                  autoComplete="off"
                  value={each.title}
                  onInput={(event) => section(index, 'title', event.currentTarget.value)}
                />
                <label for={`section-${index}-content`}>Section {index + 1} content</label>
                <textarea
                  id={`section-${index}-content`}
                  rows={3}
                  value={each.content}
                  onInput={(event) => section(index, 'content', event.currentTarget.value)}
                />
                <button
                  type="button"
                  class="secondary"
                  onClick={() =>
                    setForm({ ...form, sections: form.sections.filter((_, at) => at !== index) })
                  }
                >
                  Remove section {index + 1}
                </button>
              </li>
            ))}
          </ol>
          <button
            type="button"
            class="secondary"
            onClick={() =>
              setForm({ ...form, sections: [...form.sections, { title: '', content: '' }] })
            }
          >
            Add a section
          </button>
          {saveProblem && <ProblemAlert problem={saveProblem} />}
          <StatusLine text={note} />
          <div>
            <button type="submit" disabled={busy} aria-busy={busy}>
              Save conventions
            </button>
          </div>
        </form>
      )}
    </>
  );
}
