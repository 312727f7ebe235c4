import { Bot, ClipboardList } from 'lucide-react';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Input, Textarea } from '#web/components/ui/input';
import { toast } from '#web/components/ui/toast';
import { cn } from '#web/lib/utils';
import type { TWorkflowInput } from '#shared/contract/workflows';
import {
  draftToInput,
  hasErrors,
  validateDraft,
  type DraftErrors,
  type WorkflowDraft,
} from '../lib/workflow-form';
import { BilingualField } from './bilingual-field';
import { CategorySelect } from './category-select';
import { FormError } from './field-error';
import { LabelledField } from './labelled-field';
import type { OwnerSelectProps } from './owner-select';
import { SurveyBuilder } from './survey-builder';
import { WebhookUrlField } from './webhook-url-field';
import { WorkflowIdentityFields } from './workflow-identity-fields';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="mb-4 text-lg font-semibold text-slate-900">{title}</h2>
      <div className="space-y-5">{children}</div>
    </Card>
  );
}

export interface WorkflowFormProps {
  /** The values the form starts from: blank for a new workflow, the stored row's (workflowToDraft) to edit. */
  initial: WorkflowDraft;
  /**
   * A new workflow's price until the admin types one (the configured default); absent when editing, where
   * the stored price is the starting value.
   */
  defaultCredits?: string;
  /** The owner as stored, listed even when the owner search does not reach them. */
  currentOwner?: OwnerSelectProps['current'];
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The request body, already checked against the contract's rules. */
  onSubmit(input: TWorkflowInput): void;
}

/**
 * Every field and rule of a workflow, with the survey builder: the one form of the create page and of the
 * edit page (decision 149), so the two can never edit different things.
 */
export function WorkflowForm({
  initial,
  defaultCredits,
  currentOwner,
  submitLabel,
  pendingLabel,
  pending,
  onSubmit,
}: WorkflowFormProps) {
  const { t } = useTranslation('admin');
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<WorkflowDraft>(initial);
  const [errors, setErrors] = useState<DraftErrors | null>(null);

  // A new workflow's credits per run start at the configured default until the admin types a value.
  const [creditsTouched, setCreditsTouched] = useState(defaultCredits === undefined);
  const withCredits = (d: WorkflowDraft, touched = creditsTouched): WorkflowDraft =>
    touched || defaultCredits === undefined ? d : { ...d, creditsPerExecution: defaultCredits };
  const credits = withCredits(draft).creditsPerExecution;

  const set = <K extends keyof WorkflowDraft>(key: K, value: WorkflowDraft[K]) => {
    const touched = creditsTouched || key === 'creditsPerExecution';
    if (touched !== creditsTouched) setCreditsTouched(true);
    const next = withCredits({ ...draft, [key]: value }, touched);
    setDraft(next);
    // Once the admin has tried to submit, messages follow the fields as they are corrected.
    if (errors) setErrors(validateDraft(next, t));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const complete = withCredits(draft);
    const found = validateDraft(complete, t);
    setErrors(found);
    if (hasErrors(found)) {
      toast({ title: t('form.fixErrors'), variant: 'destructive' });
      // Focus the first field that needs attention once the messages are on screen.
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    onSubmit(draftToInput(complete));
  };

  const shown = errors ?? { questions: {} };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-6">
      <Section title={t('create.sections.basics')}>
        <WorkflowIdentityFields
          idPrefix="wf"
          values={draft}
          onChange={set}
          errors={shown}
          currentOwner={currentOwner}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <CategorySelect
            id="wf-category"
            value={draft.categoryKey}
            onChange={(v) => set('categoryKey', v)}
            error={shown.categoryKey}
          />
          <LabelledField
            id="wf-credits"
            label={t('form.creditsPerExecution')}
            required
            error={shown.creditsPerExecution}
          >
            {(control) => (
              <Input
                {...control}
                type="number"
                min={1}
                step={1}
                required
                value={credits}
                onChange={(e) => set('creditsPerExecution', e.target.value)}
              />
            )}
          </LabelledField>
        </div>
        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-slate-900">{t('form.visibility')}</legend>
          <div className="flex flex-wrap gap-3">
            {([true, false] as const).map((isPublic) => (
              <label
                key={String(isPublic)}
                className={cn(
                  'flex cursor-pointer items-start gap-2 rounded-lg border px-3 py-2 text-sm',
                  draft.isPublic === isPublic ? 'border-brand-600 bg-brand-50' : 'border-slate-300 bg-white',
                )}
              >
                <input
                  type="radio"
                  name="wf-visibility"
                  className="mt-0.5 accent-brand-600"
                  checked={draft.isPublic === isPublic}
                  onChange={() => set('isPublic', isPublic)}
                />
                <span>
                  <span className="block font-medium text-slate-900">
                    {isPublic ? t('visibility.public') : t('visibility.private')}
                  </span>
                  <span className="block text-slate-700">
                    {isPublic ? t('form.publicHint') : t('form.privateHint')}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </Section>

      <Section title={t('create.sections.webhook')}>
        <WebhookUrlField
          id="wf-webhook"
          value={draft.webhookUrl}
          onChange={(v) => set('webhookUrl', v)}
          error={shown.webhookUrl}
          explain
        />
      </Section>

      <Section title={t('create.sections.interaction')}>
        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-slate-900">{t('form.interactionType')}</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {(
              [
                ['chatbot', Bot],
                ['survey', ClipboardList],
              ] as const
            ).map(([type, Icon]) => (
              <label
                key={type}
                className={cn(
                  'flex cursor-pointer items-start gap-3 rounded-xl border p-4 text-sm',
                  draft.interactionType === type
                    ? 'border-brand-600 bg-brand-50 ring-1 ring-brand-600'
                    : 'border-slate-300 bg-white hover:border-slate-400',
                )}
              >
                <input
                  type="radio"
                  name="wf-interaction"
                  className="mt-1 accent-brand-600"
                  checked={draft.interactionType === type}
                  onChange={() => set('interactionType', type)}
                />
                <Icon className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
                <span>
                  <span className="block font-semibold text-slate-900">{t(`interaction.${type}`)}</span>
                  <span className="block text-slate-700">{t(`interaction.${type}Hint`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        {draft.interactionType === 'chatbot' ? (
          <>
            <BilingualField
              id="wf-welcome"
              label={t('form.welcomeMessage')}
              value={draft.welcomeMessage}
              onChange={(v) => set('welcomeMessage', v)}
              multiline
              required
              error={shown.welcomeMessage}
            />
            <LabelledField
              id="wf-prompt"
              label={t('form.aiPrompt')}
              required
              error={shown.aiPrompt}
              help={t('form.aiPromptHint')}
            >
              {(control) => (
                <Textarea
                  {...control}
                  rows={5}
                  required
                  value={draft.aiPrompt}
                  onChange={(e) => set('aiPrompt', e.target.value)}
                />
              )}
            </LabelledField>
          </>
        ) : (
          <div>
            <h3 className="mb-3 text-sm font-semibold text-slate-900">{t('survey.title')}</h3>
            <SurveyBuilder
              questions={draft.surveyQuestions}
              onChange={(v) => set('surveyQuestions', v)}
              errors={shown.questions}
              listError={shown.survey}
            />
          </div>
        )}
      </Section>

      <FormError message={shown.form} />
      <div className="flex flex-col-reverse gap-3 border-t border-slate-200 pt-6 sm:flex-row sm:justify-end">
        <Button asChild variant="secondary">
          <Link to="/admin/workflows">{t('common.cancel')}</Link>
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
