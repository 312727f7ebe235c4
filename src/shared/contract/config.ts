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
      en: 'Accounts must verify their e-mail address before starting a run',
      es: 'Las cuentas deben verificar su correo antes de iniciar una ejecución',
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
} as const satisfies Record<string, { schema: z.ZodType; defaultValue: unknown; description: TBilingual }>;

export type ConfigKey = keyof typeof CONFIG_ENTRIES;
export type ConfigValues = { [K in ConfigKey]: z.infer<(typeof CONFIG_ENTRIES)[K]['schema']> };
export const CONFIG_KEYS = Object.keys(CONFIG_ENTRIES) as ConfigKey[];
