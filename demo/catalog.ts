import { CATEGORIES } from '../src/shared/contract/categories.js';
import type { TBilingual } from '../src/shared/contract/common.js';
import type { TSurveyQuestion } from '../src/shared/contract/workflows.js';
import type { DemoSlug } from './hooks/demos.js';

export interface DemoWorkflow {
  /** Fixed, so every start updates the same rows instead of adding new ones. */
  id: string;
  slug: DemoSlug;
  name: TBilingual;
  description: TBilingual;
  categoryKey: string;
  creditsPerExecution: number;
  interactionType: 'chatbot' | 'survey';
  welcomeMessage?: TBilingual;
  aiPrompt?: string;
  surveyQuestions?: TSurveyQuestion[];
}

export function categoryName(key: string): TBilingual {
  const category = CATEGORIES.find((c) => c.key === key);
  if (!category) throw new Error(`unknown category ${key}`);
  return category.name;
}

/** An option that reads differently per language; its English text is the stored option. */
const opt = (en: string, es: string): TBilingual => ({ en, es });

const q = (
  id: string,
  type: TSurveyQuestion['type'],
  en: string,
  es: string,
  options: Array<string | TBilingual> = [],
): TSurveyQuestion => {
  const labelled = options.filter((o): o is TBilingual => typeof o !== 'string');
  return {
    id,
    type,
    question: { en, es },
    options: options.map((o) => (typeof o === 'string' ? o : o.en)),
    ...(labelled.length > 0 ? { optionLabels: Object.fromEntries(labelled.map((o) => [o.en, o])) } : {}),
  };
};

/**
 * The built-in demo workflows: together they show chat and survey runs and every kind of result (text,
 * CSV, XLSX, image, PDF), a slow run with progress messages, a failing run that is refunded, and a survey
 * whose answer is a file the service fetches through its signed link.
 */
export const DEMO_WORKFLOWS: DemoWorkflow[] = [
  {
    id: 'd3e0a000-0000-4000-8000-000000000001',
    slug: 'chat-summary',
    name: { en: 'Event planning assistant', es: 'Asistente para planificar eventos' },
    description: {
      en: 'Tell the assistant about your event in a short chat and get a clear brief with everything your team needs to start organising it.',
      es: 'Cuéntale al asistente cómo es tu evento en una breve conversación y recibe un resumen claro con todo lo que tu equipo necesita para empezar a organizarlo.',
    },
    categoryKey: 'management',
    creditsPerExecution: 1,
    interactionType: 'chatbot',
    welcomeMessage: {
      en: 'Hi! I will help you prepare the brief for your event. What kind of event are you planning?',
      es: '¡Hola! Te ayudaré a preparar el resumen de tu evento. ¿Qué tipo de evento estás organizando?',
    },
    aiPrompt: [
      'You help people plan an event and collect what the organising team needs.',
      'Ask one question at a time: How many guests are you expecting? When and where will it take place? What is the approximate budget?',
      'Preguntas en español: ¿Cuántos invitados esperas? ¿Cuándo y dónde será? ¿Cuál es el presupuesto aproximado?',
    ].join('\n'),
  },
  {
    id: 'd3e0a000-0000-4000-8000-000000000002',
    slug: 'survey-csv',
    name: { en: 'Customer feedback to CSV', es: 'Opiniones de clientes a CSV' },
    description: {
      en: 'Answer a short customer feedback survey and download the answers as a CSV file ready for Excel, Google Sheets or your CRM.',
      es: 'Responde una breve encuesta de opinión de clientes y descarga las respuestas en un archivo CSV listo para Excel, Google Sheets o tu CRM.',
    },
    categoryKey: 'marketing',
    creditsPerExecution: 1,
    interactionType: 'survey',
    surveyQuestions: [
      q('name', 'text', 'Customer or company name', 'Nombre del cliente o empresa'),
      q(
        'score',
        'number',
        'How likely are you to recommend us (0-10)?',
        '¿Qué probabilidad hay de que nos recomiendes (0-10)?',
      ),
      q('channel', 'select', 'How did you hear about us?', '¿Cómo nos conociste?', [
        'Google',
        'LinkedIn',
        'Instagram',
        opt('Referral', 'Recomendación'),
      ]),
      q('liked', 'checkbox', 'What did you value most?', '¿Qué valoraste más?', [
        opt('Price', 'Precio'),
        opt('Support', 'Soporte'),
        opt('Speed', 'Rapidez'),
        opt('Quality', 'Calidad'),
      ]),
      q('comments', 'textarea', 'Anything we could do better?', '¿Qué podríamos mejorar?'),
    ],
  },
  {
    id: 'd3e0a000-0000-4000-8000-000000000003',
    slug: 'expense-xlsx',
    name: { en: 'Expense report spreadsheet', es: 'Informe de gastos en Excel' },
    description: {
      en: 'Fill in a trip or purchase expense and receive a tidy Excel workbook (.xlsx) to attach to your reimbursement request.',
      es: 'Rellena un gasto de viaje o compra y recibe un libro de Excel (.xlsx) ordenado para adjuntar a tu solicitud de reembolso.',
    },
    categoryKey: 'administration',
    creditsPerExecution: 2,
    interactionType: 'survey',
    surveyQuestions: [
      q('employee', 'text', 'Employee name', 'Nombre del empleado'),
      q('amount', 'number', 'Total amount (EUR)', 'Importe total (EUR)'),
      q('type', 'select', 'Expense type', 'Tipo de gasto', [
        opt('Travel', 'Viaje'),
        opt('Meals', 'Comidas'),
        'Software',
        'Material',
      ]),
      q('receipts', 'checkbox', 'Receipts attached', 'Justificantes adjuntos', [
        opt('Invoice', 'Factura'),
        'Ticket',
        opt('Card statement', 'Extracto'),
      ]),
      q('purpose', 'textarea', 'Purpose of the expense', 'Motivo del gasto'),
    ],
  },
  {
    id: 'd3e0a000-0000-4000-8000-000000000004',
    slug: 'chart-png',
    name: { en: 'Weekly KPI chart', es: 'Gráfico semanal de KPIs' },
    description: {
      en: "Enter this week's key figures and get a bar chart image you can paste straight into a report or a team chat.",
      es: 'Introduce las cifras clave de la semana y obtén una imagen con un gráfico de barras para pegar en un informe o en el chat del equipo.',
    },
    categoryKey: 'data-ai',
    creditsPerExecution: 1,
    interactionType: 'survey',
    surveyQuestions: [
      q('visits', 'number', 'Website visits (thousands)', 'Visitas a la web (miles)'),
      q('leads', 'number', 'New leads', 'Nuevos contactos comerciales'),
      q('sales', 'number', 'Closed sales', 'Ventas cerradas'),
      q('tickets', 'number', 'Support tickets', 'Incidencias de soporte'),
    ],
  },
  {
    id: 'd3e0a000-0000-4000-8000-000000000005',
    slug: 'report-pdf',
    name: { en: 'Incident report (PDF)', es: 'Informe de incidencia (PDF)' },
    description: {
      en: 'Describe a workplace or IT incident with a guided form and receive a formatted PDF report to file or share.',
      es: 'Describe una incidencia laboral o informática con un formulario guiado y recibe un informe en PDF listo para archivar o compartir.',
    },
    categoryKey: 'operations',
    creditsPerExecution: 2,
    interactionType: 'survey',
    surveyQuestions: [
      q('reporter', 'text', 'Reported by', 'Comunicado por'),
      q('severity', 'select', 'Severity', 'Gravedad', [
        opt('Low', 'Baja'),
        opt('Medium', 'Media'),
        opt('High', 'Alta'),
        opt('Critical', 'Crítica'),
      ]),
      q('affected', 'number', 'People affected', 'Personas afectadas'),
      q('areas', 'checkbox', 'Areas involved', 'Áreas implicadas', [
        opt('IT', 'Informática'),
        opt('Facilities', 'Instalaciones'),
        opt('Customers', 'Clientes'),
        opt('Staff', 'Personal'),
      ]),
      q('description', 'textarea', 'What happened?', '¿Qué ha pasado?'),
    ],
  },
  {
    id: 'd3e0a000-0000-4000-8000-000000000006',
    slug: 'slow-research',
    name: { en: 'Market research report', es: 'Informe de estudio de mercado' },
    description: {
      en: 'Chat about your product idea and receive a short market assessment. The analysis takes about 20 seconds and shows its progress as it works.',
      es: 'Conversa sobre tu idea de producto y recibe una breve valoración de mercado. El análisis tarda unos 20 segundos y muestra su progreso mientras trabaja.',
    },
    categoryKey: 'sales',
    creditsPerExecution: 3,
    interactionType: 'chatbot',
    welcomeMessage: {
      en: 'Hello! Which product or service would you like to research?',
      es: '¡Hola! ¿Qué producto o servicio quieres analizar?',
    },
    aiPrompt: [
      'You collect the inputs of a market research report.',
      'Ask one question at a time: Who is your target customer? Which competitors do you know?',
      'Preguntas en español: ¿Quién es tu cliente objetivo? ¿Qué competidores conoces?',
    ].join('\n'),
  },
  {
    id: 'd3e0a000-0000-4000-8000-000000000007',
    slug: 'always-fails',
    name: { en: 'Inventory sync (failure demo)', es: 'Sincronizar inventario (demo de fallo)' },
    description: {
      en: 'Shows what happens when a workflow fails: the run ends with a clear error and your credits are refunded automatically.',
      es: 'Muestra qué ocurre cuando un workflow falla: la ejecución termina con un error claro y tus créditos se devuelven automáticamente.',
    },
    categoryKey: 'operations',
    creditsPerExecution: 1,
    interactionType: 'survey',
    surveyQuestions: [
      q('warehouse', 'select', 'Warehouse', 'Almacén', ['Madrid', 'Barcelona', 'Valencia']),
      q('sku', 'text', 'Product code (SKU)', 'Código de producto (SKU)'),
    ],
  },
  {
    id: 'd3e0a000-0000-4000-8000-000000000008',
    slug: 'csv-summary',
    name: { en: 'CSV summary', es: 'Resumen de un CSV' },
    description: {
      en: 'Upload a CSV file and get a short summary: how many rows and columns it has, and the totals, averages and ranges of its numeric columns.',
      es: 'Sube un archivo CSV y recibe un breve resumen: cuántas filas y columnas tiene, y los totales, medias y rangos de sus columnas numéricas.',
    },
    categoryKey: 'data-ai',
    creditsPerExecution: 1,
    interactionType: 'survey',
    surveyQuestions: [
      { ...q('data', 'file', 'Your CSV file', 'Tu archivo CSV'), accept: ['csv'], maxSizeMb: 2 },
      q('include', 'checkbox', 'Also include', 'Incluir también', [
        opt('First rows', 'Primeras filas'),
        opt('Last rows', 'Últimas filas'),
      ]),
    ],
  },
];
