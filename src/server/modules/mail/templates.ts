import type { TLanguage } from '#shared/contract/common.js';
import type { TPurchaseNoteKind } from '#shared/contract/credits.js';
import type { TEmailKind } from '#shared/contract/emails.js';
import { ledgerNoteText } from '#shared/i18n/ledger-notes.js';
import type { TScheduleSkipReason } from '#shared/contract/schedules.js';

/** What each kind of mail needs to be written. */
export interface MailParams {
  password_reset: { name: string; link: string; minutes: number };
  /** `revokedKeys`: the names of the API keys the change revoked (none: the list is left out). */
  password_changed: { name: string; link: string; revokedKeys?: string[] };
  email_verification: { name: string; link: string; hours: number };
  email_change_verification: { name: string; link: string; hours: number; email: string };
  email_change_notice: { name: string; newEmail: string; link: string };
  account_deleted: { name: string };
  /** One of the account's webhooks was turned off: it answered 410 (`gone`) or failed for 3 days (`failing`). */
  webhook_disabled: { name: string; url: string; reason: 'gone' | 'failing'; link: string };
  purchase_receipt: {
    name: string;
    plan: string;
    /** What was bought, as the purchase's ledger row words it ("Pro offer", "Pro monthly plan renewal"). */
    note: TPurchaseNoteKind;
    credits: number;
    bonusCredits: number;
    priceUsd: number;
    /** ISO instant of the payment's grant. */
    paidAt: string;
    /** The purchase row's id, shown in the person's transaction details too. */
    reference: string;
    link: string;
  };
  /** A run its owner probably did not watch ended (decision 142). */
  run_ended: {
    name: string;
    workflow: string;
    status: 'completed' | 'failed' | 'expired';
    credits: number;
    /** The first lines of a text result, or the file's name; null when there is nothing to show. */
    summary: string | null;
    /** Why it did not complete, worded for the person (runFailureText). */
    failure: string | null;
    link: string;
    settingsLink: string;
  };
  low_balance: { name: string; balance: number; threshold: number; link: string; settingsLink: string };
  /**
   * To each admin who did not opt out (decision 146): a workflow started failing (`failing`: `rule` says which
   * rule fired), paused itself (`paused`), or recovered. `errors`: the last errors of its delivery logs.
   */
  workflow_alert: {
    name: string;
    workflow: string;
    event: 'failing' | 'paused' | 'recovered';
    rule: 'consecutive_failures' | 'failure_rate' | null;
    /** The configured threshold of the rule (runs in a row, or percent). */
    threshold: number;
    errors: string[];
    link: string;
    settingsLink: string;
  };
  schedule_skipped: ScheduleMail;
  schedule_paused: ScheduleMail;
  schedule_uncovered: ScheduleMail & { balance: number; credits: number };
}

interface ScheduleMail {
  name: string;
  workflow: string;
  savedInputName: string;
  reason: TScheduleSkipReason | null;
  /** ISO instant of the due time. */
  dueAt: string;
  link: string;
  settingsLink: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * A mail as paragraphs; a `link` paragraph becomes a button in HTML and a bare line in text; `rows` are
 * label and value pairs (a receipt's lines), a table in HTML and "label: value" lines in text.
 */
type Block = { p: string } | { link: string; label: string } | { rows: [string, string][] };
interface Copy {
  subject: string;
  blocks: Block[];
}

const PRODUCT = 'Flujo';

type Writers = { [K in TEmailKind]: (p: MailParams[K]) => Copy };

const hello = { en: (name: string) => `Hi ${name},`, es: (name: string) => `Hola, ${name}:` };
/** The paragraph naming the API keys a password change revoked, when it revoked any. */
const revokedKeys = {
  en: (names: string[] = []): Block[] =>
    names.length === 0
      ? []
      : [
          {
            p: `These API keys were revoked and no longer work: ${names.join(', ')}. Make new ones in your account settings if you need them.`,
          },
        ],
  es: (names: string[] = []): Block[] =>
    names.length === 0
      ? []
      : [
          {
            p: `Se revocaron estas claves de API, que ya no funcionan: ${names.join(', ')}. Crea otras en los ajustes de tu cuenta si las necesitas.`,
          },
        ],
};

const sign = {
  en: `The ${PRODUCT} team`,
  es: `El equipo de ${PRODUCT}`,
};

const LOCALE = { en: 'en-US', es: 'es-ES' } as const;

/** A receipt's figures in the reader's conventions: "$20.00" / "20,00 US$", "November 27, 2026" / "27 de noviembre de 2026". */
function receiptFigures(language: TLanguage, p: MailParams['purchase_receipt']) {
  const locale = LOCALE[language];
  return {
    what: ledgerNoteText(language, { kind: p.note, params: { plan: p.plan }, notes: null }) ?? p.plan,
    paid: new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(p.priceUsd),
    date: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(p.paidAt)),
  };
}

/** How the notification mails end: where the person changes what they are told. */
const unsubscribe = {
  en: (link: string): Block[] => [
    {
      p: 'You get this mail because of your notification settings. To change what you are told, open your account:',
    },
    { link, label: 'Notification settings' },
  ],
  es: (link: string): Block[] => [
    {
      p: 'Recibes este correo por tus preferencias de avisos. Para cambiar de qué te avisamos, abre tu cuenta:',
    },
    { link, label: 'Preferencias de avisos' },
  ],
};

const runStatusWord = {
  en: { completed: 'completed', failed: 'failed', expired: 'expired' },
  es: { completed: 'completada', failed: 'fallida', expired: 'caducada' },
} as const;

const skipReason = {
  en: {
    insufficient_credits: 'your balance did not cover it',
    workflow_unavailable: 'the workflow is not available',
    needs_review: 'the saved answers need review since the workflow changed its questions',
    account_suspended: 'the account is suspended',
    missed: 'the service was down at that time',
  },
  es: {
    insufficient_credits: 'tu saldo no alcanzaba',
    workflow_unavailable: 'el workflow no está disponible',
    needs_review: 'las respuestas guardadas deben revisarse porque el workflow cambió sus preguntas',
    account_suspended: 'la cuenta está suspendida',
    missed: 'el servicio no estaba disponible a esa hora',
  },
} as const;

/** A due time in the reader's conventions, in UTC (the schedule's own zone is on its screen). */
const dueTime = (language: TLanguage, iso: string) =>
  new Intl.DateTimeFormat(LOCALE[language], {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(iso)) + ' UTC';

function runEndedRows(language: TLanguage, p: MailParams['run_ended']): Block[] {
  const en = language === 'en';
  const rows: [string, string][] = [
    [en ? 'Workflow' : 'Workflow', p.workflow],
    [en ? 'Status' : 'Estado', runStatusWord[language][p.status]],
    [en ? 'Credits' : 'Créditos', String(p.credits)],
  ];
  const blocks: Block[] = [{ rows }];
  if (p.failure) blocks.push({ p: p.failure });
  if (p.summary) blocks.push({ p: `${en ? 'Result' : 'Resultado'}: ${p.summary}` });
  return blocks;
}

const WRITERS: Record<TLanguage, Writers> = {
  en: {
    password_reset: (p) => ({
      subject: `Reset your ${PRODUCT} password`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p: `Someone asked to reset the password of your ${PRODUCT} account. To choose a new one, open this link within ${p.minutes} minutes:`,
        },
        { link: p.link, label: 'Choose a new password' },
        { p: 'If it was not you, ignore this mail: your password stays as it is.' },
      ],
    }),
    password_changed: (p) => ({
      subject: `Your ${PRODUCT} password was changed`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p: `The password of your ${PRODUCT} account was just changed, and every other session was signed out.`,
        },
        ...revokedKeys.en(p.revokedKeys),
        { p: 'If it was not you, reset your password now:' },
        { link: p.link, label: 'Reset my password' },
      ],
    }),
    email_verification: (p) => ({
      subject: `Confirm your e-mail address for ${PRODUCT}`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p: `Welcome to ${PRODUCT}. Please confirm that this is your e-mail address (the link works for ${p.hours} hours):`,
        },
        { link: p.link, label: 'Confirm my e-mail address' },
        { p: 'If you did not create an account, ignore this mail.' },
      ],
    }),
    email_change_verification: (p) => ({
      subject: `Confirm your new e-mail address for ${PRODUCT}`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p: `You asked to use ${p.email} for your ${PRODUCT} account. The change applies once you open this link (it works for ${p.hours} hours):`,
        },
        { link: p.link, label: 'Confirm my new address' },
        { p: 'If it was not you, ignore this mail: nothing changes.' },
      ],
    }),
    email_change_notice: (p) => ({
      subject: `Your ${PRODUCT} e-mail address is being changed`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p: `Someone asked to change the e-mail address of your ${PRODUCT} account to ${p.newEmail}. It changes only when the link sent to that address is opened.`,
        },
        { p: 'If it was not you, reset your password now:' },
        { link: p.link, label: 'Reset my password' },
      ],
    }),
    account_deleted: (p) => ({
      subject: `Your ${PRODUCT} account was deleted`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p: `Your ${PRODUCT} account and its personal data were deleted, as you asked. Records of payments are kept without your name, as the law requires.`,
        },
        { p: 'Thank you for having used the product.' },
      ],
    }),
    workflow_alert: (p) => ({
      subject:
        p.event === 'recovered'
          ? `Workflow "${p.workflow}" works again`
          : p.event === 'paused'
            ? `Workflow "${p.workflow}" was paused after failing`
            : `Workflow "${p.workflow}" is failing`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p:
            p.event === 'recovered'
              ? `The workflow "${p.workflow}" completed a run again: its incident is closed.`
              : p.event === 'paused'
                ? `The workflow "${p.workflow}" failed ${p.threshold} runs in a row, so it was paused: nobody can start it until an admin resumes it. Runs already under way go on.`
                : p.rule === 'failure_rate'
                  ? `More than ${p.threshold}% of the runs of the workflow "${p.workflow}" failed in the last hour.`
                  : `The workflow "${p.workflow}" failed ${p.threshold} runs in a row.`,
        },
        ...(p.errors.length > 0
          ? [{ p: 'Its last errors:' }, { rows: p.errors.map((e, i): [string, string] => [`${i + 1}`, e]) }]
          : []),
        { link: p.link, label: 'Open the workflow' },
        { p: 'You get these alerts as an administrator; turn them off in the admin settings:' },
        { link: p.settingsLink, label: 'Alert settings' },
      ],
    }),
    webhook_disabled: (p) => ({
      subject: `A ${PRODUCT} webhook of yours was turned off`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p:
            p.reason === 'gone'
              ? `Your webhook ${p.url} answered 410 Gone, so we stopped sending it events.`
              : `Every delivery to your webhook ${p.url} has failed for 3 days, so we stopped sending it events.`,
        },
        {
          p: 'Once it works again, turn it back on in your account settings (Webhooks); its delivery log shows what it answered.',
        },
        { link: p.link, label: 'Open my webhooks' },
      ],
    }),
    purchase_receipt: (p) => {
      const f = receiptFigures('en', p);
      const total = p.credits + p.bonusCredits;
      return {
        subject: `Your ${PRODUCT} receipt: ${f.what}`,
        blocks: [
          { p: hello.en(p.name) },
          { p: `Thank you for your purchase. ${total} credits were added to your balance.` },
          {
            rows: [
              ['Purchase', f.what],
              [
                'Credits',
                p.bonusCredits > 0 ? `${p.credits} + ${p.bonusCredits} bonus = ${total}` : String(p.credits),
              ],
              ['Amount paid', f.paid],
              ['Date', f.date],
              ['Reference', p.reference],
            ],
          },
          { p: 'Credits never expire. Your account lists this payment with the same reference:' },
          { link: p.link, label: 'See my transactions' },
        ],
      };
    },

    run_ended: (p) => ({
      subject:
        p.status === 'completed'
          ? `Your run of ${p.workflow} is ready`
          : `Your run of ${p.workflow} did not complete`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p:
            p.status === 'completed'
              ? `Your run of ${p.workflow} has ended and its result is ready.`
              : `Your run of ${p.workflow} ended without a result. Its credits were given back.`,
        },
        ...runEndedRows('en', p),
        { link: p.link, label: 'Open the run' },
        ...unsubscribe.en(p.settingsLink),
      ],
    }),
    low_balance: (p) => ({
      subject: `Your ${PRODUCT} balance is below ${p.threshold} credits`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p: `Your balance is ${p.balance} credits, below the ${p.threshold} you asked to be told about. Runs that cost more than your balance will not start, scheduled ones included.`,
        },
        { link: p.link, label: 'Buy credits' },
        { p: 'We will not tell you again until your balance is back above that figure.' },
        ...unsubscribe.en(p.settingsLink),
      ],
    }),
    schedule_skipped: (p) => ({
      subject: `A scheduled run of ${p.workflow} was skipped`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p: `The run of "${p.savedInputName}" (${p.workflow}) due on ${dueTime('en', p.dueAt)} did not start${p.reason ? `: ${skipReason.en[p.reason]}` : ''}. Nothing was charged.`,
        },
        { link: p.link, label: 'See my schedules' },
        ...unsubscribe.en(p.settingsLink),
      ],
    }),
    schedule_paused: (p) => ({
      subject: `Your schedule of ${p.workflow} was paused`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p: `The schedule of "${p.savedInputName}" (${p.workflow}) skipped three runs in a row${p.reason ? ` (the last one because ${skipReason.en[p.reason]})` : ''}, so it was paused. It will not run until you resume it.`,
        },
        { link: p.link, label: 'See my schedules' },
        ...unsubscribe.en(p.settingsLink),
      ],
    }),
    schedule_uncovered: (p) => ({
      subject: `Your balance will not cover a scheduled run of ${p.workflow}`,
      blocks: [
        { p: hello.en(p.name) },
        {
          p: `The run of "${p.savedInputName}" (${p.workflow}) due on ${dueTime('en', p.dueAt)} costs ${p.credits} credits and your balance is ${p.balance}. Without more credits it will be skipped.`,
        },
        { link: p.link, label: 'Buy credits' },
        ...unsubscribe.en(p.settingsLink),
      ],
    }),
  },
  es: {
    password_reset: (p) => ({
      subject: `Restablece tu contraseña de ${PRODUCT}`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p: `Alguien pidió restablecer la contraseña de tu cuenta de ${PRODUCT}. Para elegir una nueva, abre este enlace en los próximos ${p.minutes} minutos:`,
        },
        { link: p.link, label: 'Elegir una contraseña nueva' },
        { p: 'Si no fuiste tú, ignora este correo: tu contraseña no cambia.' },
      ],
    }),
    password_changed: (p) => ({
      subject: `Tu contraseña de ${PRODUCT} ha cambiado`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p: `Se acaba de cambiar la contraseña de tu cuenta de ${PRODUCT} y se cerraron las demás sesiones.`,
        },
        ...revokedKeys.es(p.revokedKeys),
        { p: 'Si no fuiste tú, restablece tu contraseña ahora:' },
        { link: p.link, label: 'Restablecer mi contraseña' },
      ],
    }),
    email_verification: (p) => ({
      subject: `Confirma tu correo electrónico en ${PRODUCT}`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p: `Te damos la bienvenida a ${PRODUCT}. Confirma que esta es tu dirección de correo (el enlace funciona durante ${p.hours} horas):`,
        },
        { link: p.link, label: 'Confirmar mi correo' },
        { p: 'Si no creaste una cuenta, ignora este correo.' },
      ],
    }),
    email_change_verification: (p) => ({
      subject: `Confirma tu nuevo correo electrónico en ${PRODUCT}`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p: `Pediste usar ${p.email} en tu cuenta de ${PRODUCT}. El cambio se aplica cuando abras este enlace (funciona durante ${p.hours} horas):`,
        },
        { link: p.link, label: 'Confirmar mi nuevo correo' },
        { p: 'Si no fuiste tú, ignora este correo: nada cambia.' },
      ],
    }),
    email_change_notice: (p) => ({
      subject: `Se está cambiando el correo de tu cuenta de ${PRODUCT}`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p: `Alguien pidió cambiar el correo de tu cuenta de ${PRODUCT} a ${p.newEmail}. Solo cambia cuando se abra el enlace enviado a esa dirección.`,
        },
        { p: 'Si no fuiste tú, restablece tu contraseña ahora:' },
        { link: p.link, label: 'Restablecer mi contraseña' },
      ],
    }),
    account_deleted: (p) => ({
      subject: `Tu cuenta de ${PRODUCT} se ha eliminado`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p: `Tu cuenta de ${PRODUCT} y sus datos personales se eliminaron, como pediste. Los registros de pagos se conservan sin tu nombre, como exige la ley.`,
        },
        { p: 'Gracias por haber usado el producto.' },
      ],
    }),
    workflow_alert: (p) => ({
      subject:
        p.event === 'recovered'
          ? `El workflow "${p.workflow}" vuelve a funcionar`
          : p.event === 'paused'
            ? `El workflow "${p.workflow}" se pausó tras fallar`
            : `El workflow "${p.workflow}" está fallando`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p:
            p.event === 'recovered'
              ? `El workflow "${p.workflow}" volvió a completar una ejecución: su incidencia está cerrada.`
              : p.event === 'paused'
                ? `El workflow "${p.workflow}" falló ${p.threshold} ejecuciones seguidas y se pausó: nadie puede ejecutarlo hasta que un administrador lo reanude. Las ejecuciones en curso siguen.`
                : p.rule === 'failure_rate'
                  ? `Más del ${p.threshold} % de las ejecuciones del workflow "${p.workflow}" fallaron en la última hora.`
                  : `El workflow "${p.workflow}" falló ${p.threshold} ejecuciones seguidas.`,
        },
        ...(p.errors.length > 0
          ? [
              { p: 'Sus últimos errores:' },
              { rows: p.errors.map((e, i): [string, string] => [`${i + 1}`, e]) },
            ]
          : []),
        { link: p.link, label: 'Abrir el workflow' },
        { p: 'Recibes estos avisos como administrador; desactívalos en los ajustes de administración:' },
        { link: p.settingsLink, label: 'Ajustes de avisos' },
      ],
    }),
    webhook_disabled: (p) => ({
      subject: `Se desactivó uno de tus webhooks de ${PRODUCT}`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p:
            p.reason === 'gone'
              ? `Tu webhook ${p.url} respondió 410 Gone, así que dejamos de enviarle eventos.`
              : `Todas las entregas a tu webhook ${p.url} han fallado durante 3 días, así que dejamos de enviarle eventos.`,
        },
        {
          p: 'Cuando vuelva a funcionar, actívalo de nuevo en los ajustes de tu cuenta (Webhooks); su registro de entregas muestra lo que respondió.',
        },
        { link: p.link, label: 'Abrir mis webhooks' },
      ],
    }),
    purchase_receipt: (p) => {
      const f = receiptFigures('es', p);
      const total = p.credits + p.bonusCredits;
      return {
        subject: `Tu recibo de ${PRODUCT}: ${f.what}`,
        blocks: [
          { p: hello.es(p.name) },
          { p: `Gracias por tu compra. Se añadieron ${total} créditos a tu saldo.` },
          {
            rows: [
              ['Compra', f.what],
              [
                'Créditos',
                p.bonusCredits > 0
                  ? `${p.credits} + ${p.bonusCredits} de bonificación = ${total}`
                  : String(p.credits),
              ],
              ['Importe pagado', f.paid],
              ['Fecha', f.date],
              ['Referencia', p.reference],
            ],
          },
          { p: 'Los créditos no caducan. Tu cuenta muestra este pago con la misma referencia:' },
          { link: p.link, label: 'Ver mis movimientos' },
        ],
      };
    },

    run_ended: (p) => ({
      subject:
        p.status === 'completed'
          ? `Tu ejecución de ${p.workflow} está lista`
          : `Tu ejecución de ${p.workflow} no se completó`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p:
            p.status === 'completed'
              ? `Tu ejecución de ${p.workflow} ha terminado y su resultado está listo.`
              : `Tu ejecución de ${p.workflow} terminó sin resultado. Se te devolvieron sus créditos.`,
        },
        ...runEndedRows('es', p),
        { link: p.link, label: 'Abrir la ejecución' },
        ...unsubscribe.es(p.settingsLink),
      ],
    }),
    low_balance: (p) => ({
      subject: `Tu saldo de ${PRODUCT} está por debajo de ${p.threshold} créditos`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p: `Tu saldo es de ${p.balance} créditos, por debajo de los ${p.threshold} de los que pediste que te avisáramos. Las ejecuciones que cuesten más que tu saldo no se iniciarán, tampoco las programadas.`,
        },
        { link: p.link, label: 'Comprar créditos' },
        { p: 'No volveremos a avisarte hasta que tu saldo vuelva a superar esa cifra.' },
        ...unsubscribe.es(p.settingsLink),
      ],
    }),
    schedule_skipped: (p) => ({
      subject: `Se omitió una ejecución programada de ${p.workflow}`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p: `La ejecución de «${p.savedInputName}» (${p.workflow}) prevista para el ${dueTime('es', p.dueAt)} no se inició${p.reason ? `: ${skipReason.es[p.reason]}` : ''}. No se cobró nada.`,
        },
        { link: p.link, label: 'Ver mis programaciones' },
        ...unsubscribe.es(p.settingsLink),
      ],
    }),
    schedule_paused: (p) => ({
      subject: `Se pausó tu programación de ${p.workflow}`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p: `La programación de «${p.savedInputName}» (${p.workflow}) omitió tres ejecuciones seguidas${p.reason ? ` (la última porque ${skipReason.es[p.reason]})` : ''}, así que se pausó. No volverá a ejecutarse hasta que la reanudes.`,
        },
        { link: p.link, label: 'Ver mis programaciones' },
        ...unsubscribe.es(p.settingsLink),
      ],
    }),
    schedule_uncovered: (p) => ({
      subject: `Tu saldo no cubrirá una ejecución programada de ${p.workflow}`,
      blocks: [
        { p: hello.es(p.name) },
        {
          p: `La ejecución de «${p.savedInputName}» (${p.workflow}) prevista para el ${dueTime('es', p.dueAt)} cuesta ${p.credits} créditos y tu saldo es de ${p.balance}. Si no añades créditos, se omitirá.`,
        },
        { link: p.link, label: 'Comprar créditos' },
        ...unsubscribe.es(p.settingsLink),
      ],
    }),
  },
};

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

function toText(copy: Copy, language: TLanguage): string {
  const lines = copy.blocks.map((b) =>
    'p' in b ? b.p : 'rows' in b ? b.rows.map(([label, value]) => `${label}: ${value}`).join('\n') : b.link,
  );
  return `${lines.join('\n\n')}\n\n${sign[language]}\n`;
}

// Plain markup with inline styles (mail clients ignore style sheets); no images, no tracking of any kind.
function toHtml(copy: Copy, language: TLanguage): string {
  const body = copy.blocks
    .map((b) =>
      'p' in b
        ? `<p style="margin:0 0 16px">${escapeHtml(b.p)}</p>`
        : 'rows' in b
          ? `<table role="presentation" style="margin:0 0 16px;border-collapse:collapse">${b.rows
              .map(
                ([label, value]) =>
                  `<tr><th scope="row" style="text-align:left;padding:4px 16px 4px 0;color:#475569;font-weight:600">${escapeHtml(label)}</th><td style="padding:4px 0;word-break:break-all">${escapeHtml(value)}</td></tr>`,
              )
              .join('')}</table>`
          : `<p style="margin:0 0 16px"><a href="${escapeHtml(b.link)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(b.label)}</a></p>` +
            `<p style="margin:0 0 16px;font-size:13px;color:#475569;word-break:break-all">${escapeHtml(b.link)}</p>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><title>${escapeHtml(copy.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f8fafc;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#0f172a">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<p style="margin:0 0 20px;font-size:20px;font-weight:700;color:#1d4ed8">${PRODUCT}</p>
${body}
<p style="margin:24px 0 0;color:#475569">${escapeHtml(sign[language])}</p>
</div>
</body>
</html>
`;
}

/** The subject and both parts of a mail, in the recipient's language. */
export function renderMail<K extends TEmailKind>(
  kind: K,
  language: TLanguage,
  params: MailParams[K],
): RenderedMail {
  const copy = (WRITERS[language][kind] as (p: MailParams[K]) => Copy)(params);
  return { subject: copy.subject, text: toText(copy, language), html: toHtml(copy, language) };
}
