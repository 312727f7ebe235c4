import type { TLanguage } from '#shared/contract/common.js';
import type { TEmailKind } from '#shared/contract/emails.js';

/** What each kind of mail needs to be written. */
export interface MailParams {
  password_reset: { name: string; link: string; minutes: number };
  password_changed: { name: string; link: string };
  email_verification: { name: string; link: string; hours: number };
  email_change_verification: { name: string; link: string; hours: number; email: string };
  email_change_notice: { name: string; newEmail: string; link: string };
  account_deleted: { name: string };
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** A mail as paragraphs; a `link` paragraph becomes a button in HTML and a bare line in text. */
type Block = { p: string } | { link: string; label: string };
interface Copy {
  subject: string;
  blocks: Block[];
}

const PRODUCT = 'Flujo';

type Writers = { [K in TEmailKind]: (p: MailParams[K]) => Copy };

const hello = { en: (name: string) => `Hi ${name},`, es: (name: string) => `Hola, ${name}:` };
const sign = {
  en: `The ${PRODUCT} team`,
  es: `El equipo de ${PRODUCT}`,
};

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
  const lines = copy.blocks.map((b) => ('p' in b ? b.p : b.link));
  return `${lines.join('\n\n')}\n\n${sign[language]}\n`;
}

// Plain markup with inline styles (mail clients ignore style sheets); no images, no tracking of any kind.
function toHtml(copy: Copy, language: TLanguage): string {
  const body = copy.blocks
    .map((b) =>
      'p' in b
        ? `<p style="margin:0 0 16px">${escapeHtml(b.p)}</p>`
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
