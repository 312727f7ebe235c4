import type { TLanguage } from '../contract/common.js';

/**
 * What names a page outside its body, per language: the browser tab's title, and for the public pages the
 * description and the sharing card (Open Graph) a search engine or a chat shows. The server writes them into
 * the page's head before any script runs (src/server/plugins/web-page.ts); the web loads the same object as
 * its `pages` namespace and keeps the tab's title on the current screen (src/web/app/page-title.ts).
 */
const en = {
  brand: 'Flujo',
  pageTitle: '{{page}} · {{brand}}',
  titles: {
    home: 'Automation workflows, pay per run',
    signIn: 'Sign in',
    signUp: 'Create your account',
    forgotPassword: 'Forgotten password',
    resetPassword: 'Choose a new password',
    verifyEmail: 'Verify your e-mail address',
    catalogue: 'Workflow catalogue',
    execute: 'Run a workflow',
    myWorkflows: 'My runs',
    run: 'Run details',
    account: 'My account',
    buyCredits: 'Buy credits',
    adminDashboard: 'Admin panel',
    adminWorkflows: 'Workflows · Admin panel',
    adminCreateWorkflow: 'Create workflow · Admin panel',
    adminEditWorkflow: 'Edit workflow · Admin panel',
    adminWorkflowVersions: 'Version history · Admin panel',
    adminWorkflowHealth: 'Workflow health · Admin panel',
    adminTestRun: 'Test run · Admin panel',
    adminExecutions: 'Runs · Admin panel',
    adminRunDetail: 'Run detail · Admin panel',
    adminUsers: 'Users · Admin panel',
    adminCredits: 'Credits · Admin panel',
    adminInsights: 'Insights · Admin panel',
    adminEmails: 'E-mails · Admin panel',
    adminAudit: 'Audit log · Admin panel',
    adminConfig: 'Configuration · Admin panel',
    notFound: 'Page not found',
    savedAnswers: 'Saved answers',
    schedules: 'Schedules',
    connect: 'Connect an app',
  },
  /** Meta descriptions of the pages a search engine may list (PUBLIC_PAGES). */
  descriptions: {
    home: 'Run automation workflows built by experts: chat with an assistant or fill in a short form and get a finished report, image or spreadsheet. Pay per run with credits.',
    catalogue:
      'Browse the catalogue of automation workflows by category: what each one delivers, what it asks you for and what a run costs in credits.',
    signIn: 'Sign in to Flujo to run automation workflows, follow your runs and download their results.',
    signUp:
      'Create your Flujo account: run automation workflows built by experts and pay only for the runs you make.',
  },
};

type PageTexts = typeof en;

const es: PageTexts = {
  brand: 'Flujo',
  pageTitle: '{{page}} · {{brand}}',
  titles: {
    home: 'Workflows de automatización, pago por ejecución',
    signIn: 'Iniciar sesión',
    signUp: 'Crea tu cuenta',
    forgotPassword: 'Contraseña olvidada',
    resetPassword: 'Elige una contraseña nueva',
    verifyEmail: 'Verifica tu correo electrónico',
    catalogue: 'Catálogo de workflows',
    execute: 'Ejecutar un workflow',
    myWorkflows: 'Mis ejecuciones',
    run: 'Detalle de la ejecución',
    account: 'Mi cuenta',
    buyCredits: 'Comprar créditos',
    adminDashboard: 'Panel de administración',
    adminWorkflows: 'Workflows · Panel de administración',
    adminCreateWorkflow: 'Crear workflow · Panel de administración',
    adminEditWorkflow: 'Editar workflow · Panel de administración',
    adminWorkflowVersions: 'Historial de versiones · Panel de administración',
    adminWorkflowHealth: 'Salud del workflow · Panel de administración',
    adminTestRun: 'Ejecución de prueba · Panel de administración',
    adminExecutions: 'Ejecuciones · Panel de administración',
    adminRunDetail: 'Detalle de la ejecución · Panel de administración',
    adminUsers: 'Usuarios · Panel de administración',
    adminCredits: 'Créditos · Panel de administración',
    adminInsights: 'Estadísticas · Panel de administración',
    adminEmails: 'Correos · Panel de administración',
    adminAudit: 'Registro de auditoría · Panel de administración',
    adminConfig: 'Configuración · Panel de administración',
    notFound: 'Página no encontrada',
    savedAnswers: 'Respuestas guardadas',
    schedules: 'Programaciones',
    connect: 'Conectar una aplicación',
  },
  descriptions: {
    home: 'Ejecuta workflows de automatización creados por expertos: conversa con un asistente o rellena un breve formulario y recibe un informe, una imagen o una hoja de cálculo terminados. Paga por ejecución con créditos.',
    catalogue:
      'Explora el catálogo de workflows de automatización por categoría: qué entrega cada uno, qué te pide y cuántos créditos cuesta una ejecución.',
    signIn:
      'Inicia sesión en Flujo para ejecutar workflows de automatización, seguir tus ejecuciones y descargar sus resultados.',
    signUp:
      'Crea tu cuenta en Flujo: ejecuta workflows de automatización creados por expertos y paga solo por las ejecuciones que hagas.',
  },
};

export const PAGE_TEXTS: Record<TLanguage, PageTexts> = { en, es };

export type PageTitleKey = keyof PageTexts['titles'];

/**
 * The pages a visitor can land on from outside, each in both languages at `path?lng=xx` (decision 135): listed in
 * sitemap.xml, indexable, with a description and hreflang alternates. Every other path is kept out of indexes.
 */
export const PUBLIC_PAGES = [
  { path: '/', key: 'home' },
  { path: '/workflows', key: 'catalogue' },
  { path: '/signin', key: 'signIn' },
  { path: '/signup', key: 'signUp' },
] as const satisfies ReadonlyArray<{ path: string; key: keyof PageTexts['descriptions'] & PageTitleKey }>;

/** The title a page shows in its language: the page's own words, then the brand. */
export function pageTitle(language: TLanguage, key: PageTitleKey): string {
  const texts = PAGE_TEXTS[language];
  return texts.pageTitle.replace('{{page}}', texts.titles[key]).replace('{{brand}}', texts.brand);
}
