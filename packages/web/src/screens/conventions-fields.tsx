import type { ConventionsForm } from '../conventions.ts';
import { DETAILS } from '../detail.ts';

/** A form field's change handler for one member of the form. */
export type Edit = <F extends keyof ConventionsForm>(field: F, value: ConventionsForm[F]) => void;

/** The form's members that are lists written one a line. */
export type ListField = 'required' | 'forbidden' | 'compliance' | 'naming';

/**
 * A list of the conventions (technologies, standards, rules), one a line or separated by
 * commas, with its hint.
 *
 * @example
 * <ListArea id="naming" label="Naming rules" hint="One rule a line." form={form} edit={edit} />
 */
export function ListArea(props: {
  id: ListField;
  label: string;
  hint: string;
  form: ConventionsForm;
  edit: Edit;
}) {
  const { id, label, hint, form, edit } = props;
  return (
    <div>
      <label for={`conventions-${id}`}>{label}</label>
      <textarea
        id={`conventions-${id}`}
        rows={3}
        aria-describedby={`conventions-${id}-hint`}
        value={form[id]}
        onInput={(event) => edit(id, event.currentTarget.value)}
      />
      <p id={`conventions-${id}-hint`} class="hint">
        {hint}
      </p>
    </div>
  );
}

const STYLES = [
  ['', 'Not set (EARS)', 'Acceptance criteria as the server writes them by default.'],
  ['ears', 'EARS', '"When …, the system shall …"'],
  ['gherkin', 'Gherkin', 'Given / When / Then scenarios, keeping their FR-n.m IDs.'],
] as const;

/**
 * How the requirements' criteria are written: not set, EARS or Gherkin.
 *
 * @example
 * <RequirementStyle form={form} edit={edit} />
 */
export function RequirementStyle({ form, edit }: { form: ConventionsForm; edit: Edit }) {
  return (
    <fieldset class="choices">
      <legend>Requirement style</legend>
      {STYLES.map(([value, label, hint]) => {
        const id = `conventions-style-${value || 'none'}`;
        return (
          <div class="choice" key={value}>
            <input
              id={id}
              type="radio"
              name="requirementStyle"
              value={value}
              checked={form.requirementStyle === value}
              onChange={() => edit('requirementStyle', value)}
              aria-describedby={`${id}-hint`}
            />
            <label for={id}>{label}</label>
            <p id={`${id}-hint`} class="hint">
              {hint}
            </p>
          </div>
        );
      })}
    </fieldset>
  );
}

/**
 * The team's own sections, each a title and its content, added and removed in place.
 *
 * @example
 * <OwnSections form={form} edit={edit} />
 */
export function OwnSections({ form, edit }: { form: ConventionsForm; edit: Edit }) {
  const change = (index: number, field: 'title' | 'content', value: string) =>
    edit(
      'sections',
      form.sections.map((each, at) => (at === index ? { ...each, [field]: value } : each)),
    );
  return (
    <>
      <h3>Sections of your own</h3>
      {form.sections.length === 0 && <p class="hint">None: the documents keep their sections.</p>}
      <ol class="answers">
        {form.sections.map((each, index) => (
          <li class="answer" key={index}>
            <label for={`section-${index}-title`}>Section {index + 1} title</label>
            <input
              id={`section-${index}-title`}
              type="text"
              autoComplete="off"
              value={each.title}
              onInput={(event) => change(index, 'title', event.currentTarget.value)}
            />
            <label for={`section-${index}-content`}>Section {index + 1} content</label>
            <textarea
              id={`section-${index}-content`}
              rows={3}
              value={each.content}
              onInput={(event) => change(index, 'content', event.currentTarget.value)}
            />
            <button
              type="button"
              class="secondary"
              onClick={() =>
                edit(
                  'sections',
                  form.sections.filter((_, at) => at !== index),
                )
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
        onClick={() => edit('sections', [...form.sections, { title: '', content: '' }])}
      >
        Add a section
      </button>
    </>
  );
}

/**
 * The documents' language (a BCP 47 tag) and their level of detail, side by side.
 *
 * @example
 * <LanguageAndDetail form={form} edit={edit} />
 */
export function LanguageAndDetail({ form, edit }: { form: ConventionsForm; edit: Edit }) {
  return (
    <div class="row">
      <div>
        <label for="conventions-language">Language</label>
        <input
          id="conventions-language"
          type="text"
          autoComplete="off"
          aria-describedby="conventions-language-hint"
          value={form.language}
          onInput={(event) => edit('language', event.currentTarget.value)}
        />
        <p id="conventions-language-hint" class="hint">
          A BCP 47 tag (de, fr, pt-BR); empty for English. The offline engine writes English and
          says so.
        </p>
      </div>
      <div>
        <label for="conventions-detail">Detail</label>
        <select
          id="conventions-detail"
          value={form.detail}
          onChange={(event) =>
            edit('detail', event.currentTarget.value as ConventionsForm['detail'])
          }
        >
          <option value="">Not set (Standard)</option>
          {DETAILS.map((level) => (
            <option key={level.value} value={level.value}>
              {level.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
