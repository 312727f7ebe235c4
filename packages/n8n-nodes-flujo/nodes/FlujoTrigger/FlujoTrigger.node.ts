import { AUTHENTICATION_PROPERTY, credentialsFor, flujoApi } from '../../lib/api';
import { conversationOf, namedAnswers, parseFlujoCall, runOf, type QuestionRef } from '../../lib/fields';
import type {
  CredentialContext,
  HookFunctions,
  JsonObject,
  NodeExecutionData,
  NodePropertyOption,
  NodeTypeDescription,
  WebhookFunctions,
  WebhookResponseData,
} from '../../lib/n8n-types';
import { verifyFlujoSignature } from '../../lib/signature';

/** What the management API answers for one workflow (the fields this node reads). */
interface FlujoWorkflow {
  id: string;
  name: { es: string; en: string };
  webhookUrl: string;
  isActive: boolean;
  interactionType: 'survey' | 'chatbot';
  surveyQuestions: QuestionRef[];
}

/** What the trigger keeps in the workflow's static data between activation and calls. */
interface TriggerState extends JsonObject {
  flujoWorkflowId?: string;
  /** The Standard Webhooks signing secret (never shown: n8n keeps static data with the workflow). */
  secret?: string;
  webhookUrl?: string;
  interactionType?: 'survey' | 'chatbot';
  questions?: QuestionRef[];
}

const state = (ctx: { getWorkflowStaticData(type: 'node'): JsonObject }) =>
  ctx.getWorkflowStaticData('node') as TriggerState;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The workflow the "create" settings describe, in the management API's create contract. */
export function workflowFromSettings(get: (name: string) => unknown): JsonObject {
  const interactionType = get('interactionType') === 'chatbot' ? 'chatbot' : 'survey';
  const bilingual = (en: string, es: string) => {
    const pair = { en: text(get(en)), es: text(get(es)) };
    return pair.en || pair.es ? { en: pair.en || pair.es, es: pair.es || pair.en } : null;
  };
  const questions = get('surveyQuestions');
  const parsed = typeof questions === 'string' ? (JSON.parse(questions || '[]') as unknown) : questions;
  return {
    name: bilingual('nameEn', 'nameEs') ?? { en: '', es: '' },
    description: bilingual('descriptionEn', 'descriptionEs'),
    category: bilingual('categoryEn', 'categoryEs') ?? { en: '', es: '' },
    creditsPerExecution: Number(get('creditsPerExecution')) || 1,
    interactionType,
    ...(interactionType === 'survey'
      ? { surveyQuestions: Array.isArray(parsed) ? parsed : [] }
      : {
          surveyQuestions: [],
          aiPrompt: text(get('aiPrompt')) || null,
          welcomeMessage: bilingual('welcomeEn', 'welcomeEs'),
        }),
  };
}

async function readWorkflow(ctx: CredentialContext, id: string): Promise<FlujoWorkflow> {
  return flujoApi<FlujoWorkflow>(ctx, 'GET', `/api/v1/admin/workflows/${encodeURIComponent(id)}`);
}

/** Keeps what the calls need: the secret, and the questions that name the answers. */
async function remember(ctx: HookFunctions | WebhookFunctions, workflow: FlujoWorkflow): Promise<void> {
  const { secretToken } = await flujoApi<{ secretToken: string }>(
    ctx,
    'GET',
    `/api/v1/admin/workflows/${encodeURIComponent(workflow.id)}/secret`,
  );
  Object.assign(state(ctx), {
    flujoWorkflowId: workflow.id,
    secret: secretToken,
    webhookUrl: workflow.webhookUrl,
    interactionType: workflow.interactionType,
    questions: workflow.surveyQuestions.map((q) => ({ id: q.id, type: q.type, question: q.question })),
  });
}

/** The Flujo workflow this node is for: the chosen one, or the one it created before (kept in static data). */
function targetId(ctx: HookFunctions): string | undefined {
  if (ctx.getNodeParameter('source') === 'existing')
    return text(ctx.getNodeParameter('workflowId')) || undefined;
  return state(ctx).flujoWorkflowId;
}

function refuse(ctx: WebhookFunctions, status: number, error: string): WebhookResponseData {
  ctx.getResponseObject().status(status).json({ error });
  return { noWebhookResponse: true };
}

const show = (values: Record<string, unknown[]>) => ({ show: values });
const create = show({ source: ['create'] });
const createSurvey = show({ source: ['create'], interactionType: ['survey'] });
const createChat = show({ source: ['create'], interactionType: ['chatbot'] });

const EXAMPLE_QUESTIONS = JSON.stringify(
  [
    { id: 'company', type: 'text', question: { en: 'Company name', es: 'Nombre de la empresa' } },
    {
      id: 'data',
      type: 'file',
      question: { en: 'Your CSV file', es: 'Tu archivo CSV' },
      accept: ['csv'],
      maxSizeMb: 5,
    },
  ],
  null,
  2,
);

/**
 * "Flujo Trigger": starts the n8n workflow when a customer runs a Flujo workflow. On activation it registers
 * its own production URL with Flujo (creating the Flujo workflow first if asked to) and keeps the signing
 * secret in the workflow's static data; on deactivation it tells Flujo, which switches the workflow off.
 * Every call's Standard Webhooks signature is checked here (401 otherwise), so no Code node is needed.
 */
export class FlujoTrigger {
  description: NodeTypeDescription = {
    displayName: 'Flujo Trigger',
    name: 'flujoTrigger',
    icon: 'file:flujo.svg',
    group: ['trigger'],
    version: 1,
    subtitle: '={{$parameter["source"] === "create" ? "new: " + $parameter["nameEn"] : "existing workflow"}}',
    description: 'Starts when a customer runs your workflow in Flujo',
    defaults: { name: 'Flujo Trigger' },
    inputs: [],
    outputs: ['main'],
    credentials: credentialsFor(),
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'flujo' }],
    properties: [
      AUTHENTICATION_PROPERTY,
      {
        displayName: 'Flujo Workflow',
        name: 'source',
        type: 'options',
        noDataExpression: true,
        default: 'create',
        options: [
          { name: 'Create It From This Node', value: 'create' },
          { name: 'An Existing Workflow', value: 'existing' },
        ],
        description: 'Activating the n8n workflow registers its address with this Flujo workflow',
      },
      {
        displayName: 'Workflow Name or ID',
        name: 'workflowId',
        type: 'options',
        typeOptions: { loadOptionsMethod: 'getWorkflows' },
        default: '',
        required: true,
        description:
          'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
        displayOptions: show({ source: ['existing'] }),
      },
      {
        displayName: 'Name (English)',
        name: 'nameEn',
        type: 'string',
        default: '',
        required: true,
        displayOptions: create,
      },
      {
        displayName: 'Name (Spanish)',
        name: 'nameEs',
        type: 'string',
        default: '',
        required: true,
        displayOptions: create,
      },
      {
        displayName: 'Description (English)',
        name: 'descriptionEn',
        type: 'string',
        default: '',
        displayOptions: create,
      },
      {
        displayName: 'Description (Spanish)',
        name: 'descriptionEs',
        type: 'string',
        default: '',
        displayOptions: create,
      },
      {
        displayName: 'Category (English)',
        name: 'categoryEn',
        type: 'string',
        default: '',
        placeholder: 'Data & AI',
        description:
          "One of the catalogue's categories: Marketing, Administration, Data & AI, Communications, Management, Sales, Human Resources, Operations, Legal, Other (Flujo's admin asks for one of them before it saves an edit)",
        required: true,
        displayOptions: create,
      },
      {
        displayName: 'Category (Spanish)',
        name: 'categoryEs',
        type: 'string',
        default: '',
        placeholder: 'Datos e IA',
        description:
          'The same category in Spanish: Marketing, Administración, Datos e IA, Comunicaciones, Gestión, Ventas, Recursos Humanos, Operaciones, Legal, Otros',
        required: true,
        displayOptions: create,
      },
      {
        displayName: 'Price (Credits per Run)',
        name: 'creditsPerExecution',
        type: 'number',
        typeOptions: { minValue: 1, maxValue: 10000 },
        default: 1,
        displayOptions: create,
      },
      {
        displayName: 'Interaction',
        name: 'interactionType',
        type: 'options',
        default: 'survey',
        options: [
          { name: 'Survey', value: 'survey', description: 'The customer answers your questions' },
          {
            name: 'Chat',
            value: 'chatbot',
            description: "Flujo's assistant gathers what you need in a chat",
          },
        ],
        displayOptions: create,
      },
      {
        displayName: 'Survey Questions',
        name: 'surveyQuestions',
        type: 'json',
        default: EXAMPLE_QUESTIONS,
        description:
          "Flujo's question list: id, type (text, textarea, number, select, checkbox, file), question in en and es, and for each type its options (options, accept, maxSizeMb, min, max, required)",
        displayOptions: createSurvey,
      },
      {
        displayName: 'Assistant Instructions',
        name: 'aiPrompt',
        type: 'string',
        typeOptions: { rows: 4 },
        default: '',
        description: 'What the assistant must find out before your workflow runs',
        displayOptions: createChat,
      },
      {
        displayName: 'Welcome Message (English)',
        name: 'welcomeEn',
        type: 'string',
        default: '',
        displayOptions: createChat,
      },
      {
        displayName: 'Welcome Message (Spanish)',
        name: 'welcomeEs',
        type: 'string',
        default: '',
        displayOptions: createChat,
      },
      {
        displayName:
          "A new workflow is private: it shows in Flujo's admin when this n8n workflow is activated, and customers see it once an admin publishes it.",
        name: 'privateNotice',
        type: 'notice',
        default: '',
        displayOptions: create,
      },
    ],
  };

  methods = {
    loadOptions: {
      async getWorkflows(this: CredentialContext): Promise<NodePropertyOption[]> {
        const rows = await flujoApi<FlujoWorkflow[]>(this, 'GET', '/api/v1/admin/workflows', {
          qs: { limit: 100 },
        });
        return rows.map((w) => ({ name: `${w.name.en} / ${w.name.es}`, value: w.id }));
      },
    },
  };

  webhookMethods = {
    default: {
      /** Registered already when Flujo calls this URL and the workflow is on. */
      async checkExists(this: HookFunctions): Promise<boolean> {
        const id = targetId(this);
        const url = this.getNodeWebhookUrl('default');
        if (!id || !url || !state(this).secret) return false;
        try {
          const workflow = await readWorkflow(this, id);
          if (workflow.webhookUrl !== url || !workflow.isActive) return false;
          await remember(this, workflow);
          return true;
        } catch {
          return false;
        }
      },

      async create(this: HookFunctions): Promise<boolean> {
        const webhookUrl = this.getNodeWebhookUrl('default');
        if (!webhookUrl) throw new Error('n8n gave this node no production webhook URL');
        const id = targetId(this);
        const creating = this.getNodeParameter('source') === 'create';
        const settings = creating
          ? // A setting hidden for this interaction type has no value: n8n throws unless a fallback is given.
            workflowFromSettings((name) => this.getNodeParameter(name, ''))
          : undefined;
        let workflow: FlujoWorkflow | undefined;
        if (creating && id) {
          // Created on an earlier activation: the node's settings are the workflow's definition, so they are
          // applied again (publishing, and anything else an admin set in Flujo, is left alone).
          try {
            workflow = await flujoApi<FlujoWorkflow>(this, 'PATCH', `/api/v1/admin/workflows/${id}`, {
              body: settings,
            });
          } catch (error) {
            if ((error as { httpCode?: string }).httpCode !== '404') throw error;
            workflow = undefined;
          }
        }
        if (creating && !workflow) {
          const me = await flujoApi<{ userId: string }>(this, 'GET', '/api/v1/me');
          workflow = await flujoApi<FlujoWorkflow>(this, 'POST', '/api/v1/admin/workflows', {
            body: { ...settings, userId: me.userId, webhookUrl, isPublic: false, isActive: true },
          });
        }
        const target = workflow?.id ?? id;
        if (!target) throw new Error('Choose the Flujo workflow this trigger is for');
        workflow = await flujoApi<FlujoWorkflow>(this, 'PUT', `/api/v1/admin/workflows/${target}/webhook`, {
          body: { webhookUrl },
        });
        await remember(this, workflow);
        return true;
      },

      async delete(this: HookFunctions): Promise<boolean> {
        const saved = state(this);
        const url = saved.webhookUrl ?? this.getNodeWebhookUrl('default');
        if (saved.flujoWorkflowId && url) {
          try {
            await flujoApi(this, 'DELETE', `/api/v1/admin/workflows/${saved.flujoWorkflowId}/webhook`, {
              qs: { webhookUrl: url },
            });
          } catch {
            // The workflow is gone from Flujo, or Flujo cannot be reached: n8n deactivates anyway, and Flujo's
            // own retries then fail the runs that still come (and refund them).
          }
        }
        // The created workflow's id stays, so the next activation reuses it; the secret goes with the URL.
        delete saved.secret;
        delete saved.webhookUrl;
        return true;
      },
    },
  };

  async webhook(this: WebhookFunctions): Promise<WebhookResponseData> {
    const request = this.getRequestObject();
    const raw = request.rawBody ?? Buffer.from(JSON.stringify(request.body ?? {}));
    const now = Math.floor(Date.now() / 1000);
    const saved = state(this);
    let valid = !!saved.secret && verifyFlujoSignature([saved.secret], request.headers, raw, now);
    if (!valid && saved.flujoWorkflowId) {
      // The secret may have been rotated in Flujo since activation: read the current one once.
      try {
        await remember(this, await readWorkflow(this, saved.flujoWorkflowId));
        valid = verifyFlujoSignature([state(this).secret ?? ''], request.headers, raw, now);
      } catch {
        valid = false;
      }
    }
    if (!valid) return refuse(this, 401, 'Invalid Flujo signature');
    const call = parseFlujoCall(request.body);
    if (!call) return refuse(this, 400, 'Not a Flujo call');

    const json: JsonObject = { run: runOf(call), language: call.language };
    const binary: NonNullable<NodeExecutionData['binary']> = {};
    if (state(this).interactionType === 'chatbot') {
      json.answers = {};
      json.conversation = conversationOf(call);
    } else {
      let named = namedAnswers(call, state(this).questions ?? []);
      if (named.unknown.length > 0 && saved.flujoWorkflowId) {
        // The questions changed in Flujo since activation.
        await remember(this, await readWorkflow(this, saved.flujoWorkflowId));
        named = namedAnswers(call, state(this).questions ?? []);
      }
      json.answers = named.answers;
      for (const { property, file } of named.files) {
        // The signed link works while the run does: the file is fetched now, with no credential.
        const bytes = await this.helpers.httpRequest({ url: file.url, encoding: 'arraybuffer', json: false });
        binary[property] = await this.helpers.prepareBinaryData(
          Buffer.from(bytes as ArrayBuffer),
          file.filename,
          file.content_type.split(';')[0],
        );
      }
    }
    const item: NodeExecutionData = { json, ...(Object.keys(binary).length > 0 ? { binary } : {}) };
    return { workflowData: [[item]] };
  }
}
