import { z } from 'zod';
import type { TBilingual } from './common.js';

/** Live configuration entries an admin can edit; each value has its own schema. */
export const CONFIG_ENTRIES = {
  signup_bonus_credits: {
    schema: z.number().int().min(0).max(1000),
    defaultValue: 5,
    description: {
      en: 'Free credits given to every new account',
      es: 'Créditos gratuitos para cada cuenta nueva',
    },
  },
  webhook_timeout_minutes: {
    schema: z.number().int().min(1).max(1440),
    defaultValue: 15,
    description: {
      en: 'Minutes a run may wait for its result before it expires and is refunded',
      es: 'Minutos que una ejecución espera su resultado antes de caducar y reembolsarse',
    },
  },
  max_result_file_mb: {
    schema: z.number().int().min(1).max(10),
    defaultValue: 10,
    description: {
      en: 'Largest result file a workflow may post back, in MB (at most 10)',
      es: 'Tamaño máximo del archivo de resultado, en MB (10 como máximo)',
    },
  },
  max_input_file_mb: {
    schema: z.number().int().min(1).max(10),
    defaultValue: 10,
    description: {
      en: 'Largest file a person may upload as a survey answer, in MB (at most 10)',
      es: 'Tamaño máximo del archivo que se sube como respuesta de una encuesta, en MB (10 como máximo)',
    },
  },
  result_retention_days: {
    schema: z.number().int().min(1).max(3650),
    defaultValue: 30,
    description: {
      en: 'Days a run keeps its stored result file before the file is deleted (applies to files stored after a change)',
      es: 'Días que una ejecución conserva su archivo de resultado antes de borrarse (se aplica a los archivos guardados tras un cambio)',
    },
  },
  chat_max_messages: {
    schema: z.number().int().min(1).max(500),
    defaultValue: 40,
    description: {
      en: 'Most user messages in one chat run',
      es: 'Máximo de mensajes del usuario en una conversación',
    },
  },
  schedules_per_account: {
    schema: z.number().int().min(0).max(1000),
    defaultValue: 20,
    description: {
      en: 'Most schedules of saved answers one account may hold',
      es: 'Máximo de programaciones de respuestas guardadas por cuenta',
    },
  },
  schedule_min_interval_minutes: {
    schema: z.number().int().min(1).max(1440),
    defaultValue: 15,
    description: {
      en: 'Shortest interval, in minutes, at which a schedule may run (a cron expression that fires more often is refused)',
      es: 'Intervalo mínimo, en minutos, con el que puede ejecutarse una programación (se rechaza una expresión cron más frecuente)',
    },
  },
  open_runs_per_user: {
    schema: z.number().int().min(1).max(100),
    defaultValue: 10,
    description: {
      en: 'Most runs one person may hold open without sending their answers (opening another closes the oldest, nothing charged); also the most chats opened through the API or MCP with no message yet (one more is refused)',
      es: 'Máximo de ejecuciones abiertas sin enviar las respuestas por persona (abrir otra cierra la más antigua, sin cobrar nada); también de chats abiertos por la API o MCP aún sin mensajes (se rechaza uno más)',
    },
  },
  saved_inputs_per_account: {
    schema: z.number().int().min(1).max(1000),
    defaultValue: 50,
    description: {
      en: 'Most saved answers one account may keep',
      es: 'Máximo de respuestas guardadas por cuenta',
    },
  },
  default_credits_per_execution: {
    schema: z.number().int().min(1).max(10000),
    defaultValue: 1,
    description: {
      en: 'Credits per run proposed for new workflows',
      es: 'Créditos por ejecución propuestos para workflows nuevos',
    },
  },
  password_reset_minutes: {
    schema: z.number().int().min(5).max(1440),
    defaultValue: 60,
    description: {
      en: 'Minutes a password-reset link stays valid',
      es: 'Minutos de validez de un enlace para restablecer la contraseña',
    },
  },
  require_email_verification: {
    schema: z.boolean(),
    // Seeded true when SMTP_URL is set at first start (db/seed.ts): without mail nobody could verify.
    defaultValue: false,
    description: {
      en: 'Accounts must verify their e-mail address before starting a run or using their API keys',
      es: 'Las cuentas deben verificar su correo antes de iniciar una ejecución o usar sus claves de API',
    },
  },
  support_email: {
    // Empty: no address is given to suspended people; otherwise one address to reach the operator.
    schema: z.union([z.literal(''), z.email().max(254)]),
    defaultValue: '',
    description: {
      en: 'E-mail address suspended people are told to write to (empty: none is shown)',
      es: 'Correo al que se indica escribir a las personas suspendidas (vacío: no se muestra ninguno)',
    },
  },
  signups_per_ip_per_hour: {
    schema: z.number().int().min(1).max(100000),
    defaultValue: 5,
    description: {
      en: 'Most new accounts one IP address may create in an hour',
      es: 'Máximo de cuentas nuevas desde una misma dirección IP en una hora',
    },
  },
  chat_max_message_chars: {
    schema: z.number().int().min(100).max(8000),
    defaultValue: 2000,
    description: {
      en: 'Longest chat message a user may send, in characters',
      es: 'Longitud máxima de un mensaje de chat del usuario, en caracteres',
    },
  },
  api_requests_per_minute: {
    schema: z.number().int().min(1).max(100000),
    defaultValue: 120,
    description: {
      en: 'Most public API (/api/v1) requests one API key may make in a minute',
      es: 'Máximo de solicitudes a la API pública (/api/v1) por clave de API en un minuto',
    },
  },
  max_event_streams_per_user: {
    schema: z.number().int().min(1).max(1000),
    defaultValue: 10,
    description: {
      en: 'Most live run event streams one person may hold open on each server instance (more are refused with 429)',
      es: 'Máximo de conexiones en vivo a ejecuciones que una persona puede tener abiertas en cada instancia del servidor (las demás se rechazan con 429)',
    },
  },
  webhooks_per_account: {
    schema: z.number().int().min(1).max(100),
    defaultValue: 10,
    description: {
      en: 'Most webhook endpoints one account may register for its events',
      es: 'Máximo de webhooks que una cuenta puede registrar para sus eventos',
    },
  },
  notify_after_seconds: {
    schema: z.number().int().min(0).max(86_400),
    defaultValue: 60,
    description: {
      en: 'Seconds a run started on the web must take before its owner is told it ended (by mail and the bell, as they chose); runs from schedules, the API and MCP always are',
      es: 'Segundos que debe durar una ejecución iniciada en la web para avisar a su dueño de que terminó (por correo y en la campana, según sus preferencias); las de programaciones, la API y MCP siempre avisan',
    },
  },
  delivery_log_entries_per_run: {
    schema: z.number().int().min(1).max(500),
    defaultValue: 50,
    description: {
      en: "Most entries (webhook calls and result callbacks) kept in one run's delivery log; later ones are not recorded",
      es: 'Máximo de entradas (llamadas al webhook y respuestas de resultado) del registro de entrega de una ejecución; las siguientes no se guardan',
    },
  },
  alert_consecutive_failures: {
    schema: z.number().int().min(1).max(1000),
    defaultValue: 3,
    description: {
      en: 'Failed runs in a row of one workflow after which the admins are mailed an alert',
      es: 'Ejecuciones fallidas seguidas de un workflow tras las que se avisa por correo a los administradores',
    },
  },
  alert_failure_rate_percent: {
    schema: z.number().int().min(1).max(100),
    defaultValue: 50,
    description: {
      en: 'Failure rate over the last hour (with at least 5 runs) above which the admins are mailed an alert',
      es: 'Porcentaje de fallos en la última hora (con al menos 5 ejecuciones) por encima del cual se avisa a los administradores',
    },
  },
  auto_pause_consecutive_failures: {
    schema: z.number().int().min(0).max(1000),
    defaultValue: 5,
    description: {
      en: 'Failed runs in a row after which a workflow pauses itself until an admin resumes it (0: never)',
      es: 'Ejecuciones fallidas seguidas tras las que un workflow se pausa hasta que un administrador lo reanude (0: nunca)',
    },
  },
} as const satisfies Record<string, { schema: z.ZodType; defaultValue: unknown; description: TBilingual }>;

export type ConfigKey = keyof typeof CONFIG_ENTRIES;
export type ConfigValues = { [K in ConfigKey]: z.infer<(typeof CONFIG_ENTRIES)[K]['schema']> };
export const CONFIG_KEYS = Object.keys(CONFIG_ENTRIES) as ConfigKey[];

/**
 * GET /api/config: the part of the server's configuration the browser may know, for everyone (no session).
 * `translationAvailable`: a language model is configured, so the admin form's translate buttons work.
 */
export const ZPublicConfig = z.object({ translationAvailable: z.boolean() });
