import type { TLanguage } from '../contract/common.js';
import type { ErrorCode } from '../contract/errors.js';

/**
 * The texts of the API's `error` field, per language, keyed by code and then by case (`default` is the
 * code's own wording). The server answers from here in the caller's language and the web loads the same
 * object as its `errors` namespace, so a text exists once. `{{name}}` is filled from the error's params (the
 * i18next syntax, so the web can use these texts with `t` as they are).
 */
const en = {
  VALIDATION_ERROR: {
    default: 'Invalid request',
    invalidRequest: 'Invalid request: {{fields}}',
    valueNotStorable: 'Invalid request: a value cannot be stored',
    passwordTooCommon: 'This password is too common. Choose a less predictable one.',
    unknownPlan: 'There is no {{type}} plan named "{{planName}}"',
    planMismatch: 'The {{plan}} plan is {{credits}} credits for ${{price}}',
    expectedJsonBody: 'Expected a JSON body',
    invalidJsonBody: 'The request body is not valid JSON',
    emptyJsonBody: 'The request body is empty, but its Content-Type says JSON',
    missingStripeSignature: 'Missing Stripe-Signature header',
    invalidWebhookSignature: 'Invalid webhook signature',
    ownerMissing: 'The selected owner does not exist',
    invalidWorkflow: 'Invalid workflow: {{fields}}',
    dateRange: 'The range must end on or after its first day and span at most {{days}} days',
    wrongPassword: 'The password is not correct',
    sameEmail: 'This is already your e-mail address',
    emptyChatMessage: 'The last message must be a non-empty message from the user',
    chatMessageTooLong: 'A message can have at most {{max}} characters',
    configNotEditable: 'The entry {{key}} cannot be edited',
    configInvalid: 'Invalid value for {{key}}: {{message}}',
    outputTooDeep: 'output_data is nested deeper than {{max}} levels',
    progressNeedsMessage: 'A progress update needs output_data.message',
    fileDataNotBase64: 'file_data is not valid base64',
    fileUrlInvalid: 'file_url is not a valid URL',
    fileUrlNotHttp: 'file_url must be an http or https URL',
    invalidResult: 'Invalid result: {{fields}}',
    multipartUnreadable: 'The multipart body could not be read',
    fileTypeNotAllowed: 'File type not allowed; send one of {{extensions}}',
    fileEmpty: 'The file is empty',
    fileContentInvalid: 'The file content is not a valid .{{extension}} file',
    expiryInPast: 'The expiry must be in the future',
    cronInvalid:
      'The schedule is not a valid cron expression: give five fields (minute, hour, day of month, month, day of week), such as "0 9 * * 1-5"',
    cronNeverRuns: 'This schedule would never run',
    cronTooFrequent: 'A schedule can run at most once every {{minutes}} minutes',
    timezoneUnknown: 'Unknown time zone "{{timezone}}": use an IANA name such as Europe/Madrid',
    scheduleEndInPast: 'The end date must be in the future',
    chatTakesNoAnswers:
      'A chat workflow takes no answers: start the run without them, then send its messages to /api/v1/runs/{id}/messages',
    fileQuestionsNotSupported:
      'This workflow asks for files, which the API cannot send yet ({{fields}}); use the web app',
    uploadNeedsFile: 'Send the multipart fields questionId and file',
    notAFileQuestion: 'This workflow has no file question {{questionId}}',
    inputFileTypeNotAllowed: 'This question accepts only {{extensions}} files',
    invalidAnswers: 'Check the answers: {{problems}}',
    chatCannotBeSaved: 'A chat workflow cannot keep saved answers: each run is a conversation',
    runNeedsOneOf: 'Send either workflowId (with its answers) or savedInputId, not both',
    answerUnknownQuestion: 'This workflow has no such question',
    answerTwice: 'The question is answered more than once',
    answerRequired: 'This question needs an answer',
    answerFileRequired: 'Upload a file for this question',
    answerNotNumber: 'Enter a number',
    answerBelowMin: 'Enter a number of at least {{min}}',
    answerAboveMax: 'Enter a number of at most {{max}}',
    answerOutOfRange: 'Enter a number from {{min}} to {{max}}',
    answerNotText: 'Enter the answer as text',
    answerTooLong: 'The answer can have at most {{max}} characters',
    answerUnknownOption: 'Choose one of the options: {{options}}',
    answerNotOptionList: 'Choose among the options: {{options}}',
    answerFileWebOnly: 'File questions are answered in the web app only',
    webhookUrlNotHttps: 'The webhook address must use https',
    webhookAddressRefused: 'This webhook address is not allowed: {{reason}}',
    webhookUnknownWorkflows: 'There is no workflow with these ids: {{ids}}',
    answerFileUnknown: 'The answer is not a file uploaded to this run for this question',
    mcpBatch: 'Send one JSON-RPC message per request: batches are not accepted',
  },
  INVALID_TOKEN: {
    default: 'This link is not valid: it was already used, it expired, or it is incomplete',
  },
  UNAUTHENTICATED: {
    default: 'You must sign in',
    invalidCredentials: 'Incorrect email or password',
    invalidRunToken: 'Unknown run or invalid token',
    apiKeyRequired: 'A valid API key is required (Authorization: Bearer flj_...)',
    metricsTokenRequired: 'The metrics token is required (Authorization: Bearer ...)',
  },
  INSUFFICIENT_CREDITS: {
    default: 'You do not have enough credits to run this workflow',
  },
  SPENDING_LIMIT: {
    default: "This run would pass the API key's monthly credit limit",
  },
  FORBIDDEN: {
    default: 'You are not allowed to do this',
    adminsOnly: 'Administrators only',
    fileLinkInvalid: 'This file link is not valid, or its run has ended',
    crossSite: 'Cross-site request refused',
    reviewNeedsCompletedRun: 'Only people who completed a run of this workflow can review it',
    adminKeyScope: 'Only administrators can create admin API keys',
    adminGrantScope: 'Only an administrator can let an app manage Flujo',
    adminKeyRequired: "This needs an admin API key of an administrator (scope 'admin')",
    mcpForeignHost: 'This MCP server does not answer under this host name',
    mcpForeignOrigin: 'This MCP server does not answer pages of this origin',
  },
  ACCOUNT_SUSPENDED: {
    default: 'This account is suspended',
    withContact: 'This account is suspended. To ask why or to appeal, write to {{email}}',
  },
  EMAIL_NOT_VERIFIED: {
    default:
      'Verify your e-mail address before starting a run: open the link we sent you, or ask for a new one',
    apiKey:
      "This account's API keys work once its e-mail address is verified: open the link we sent you, or ask for a new one",
  },
  NOT_FOUND: {
    default: 'Resource not found',
    account: 'Account not found',
    user: 'User not found',
    email: 'E-mail not found',
    workflow: 'Workflow not found',
    execution: 'Run not found',
    result: 'Result not found',
    configEntry: 'Configuration entry not found',
    noActivePlan: 'You have no active monthly plan',
    apiKey: 'API key not found',
    oauthInteraction:
      'This authorisation request does not exist or has expired: start again from the application',
    oauthGrant: 'Connected app not found',
    inputFile: 'File not found',
    savedInput: 'Saved answers not found',
    review: 'Review not found',
    session: 'Session not found',
    webhook: 'Webhook not found',
    webhookDelivery: 'Delivery not found',
    notification: 'Notification not found',
    schedule: 'Schedule not found',
    workflowVersion: 'Version not found',
  },
  WORKFLOW_PAUSED: {
    default: 'This workflow is temporarily unavailable: it is paused while its service is checked',
  },
  CONFLICT: {
    default: 'The request conflicts with the current state',
    emailTaken: 'An account with this email already exists',
    alreadyVerified: 'This e-mail address is already verified',
    accountSuspended: 'This account is suspended',
    adminCannotDelete:
      'An administrator account cannot delete itself: ask another admin to remove the role first',
    cannotSuspendSelf: 'You cannot suspend your own account',
    cannotRemoveOwnAdmin: 'You cannot remove your own administrator role',
    balanceBelowZero:
      'The balance cannot go below zero: the user has {{credits}} credits and {{taken}} would be taken',
    smtpMissing: 'No SMTP server is configured (SMTP_URL): mails cannot be sent',
    onlyFailedRetry: 'Only a failed mail can be retried',
    deliveryNotRetriable:
      'Only a running run whose workflow service has not accepted it yet can be delivered again',
    chatLimit: 'This conversation has reached its limit of {{max}} messages',
    notAChat: 'This workflow is a survey, not a chat',
    runNotWaiting: 'This run is no longer waiting for a conversation',
    replyStopped: 'The reply was stopped before it was finished; the message was not kept',
    noPendingRun: 'There is no pending run of this workflow: start one before chatting',
    runEnded: 'This run has already ended',
    runCompletedOrExpired: 'This run was already completed or has expired',
    idempotencyKeyReused: 'This Idempotency-Key was already used for a different purchase',
    idempotencyKeyInProgress: 'A purchase with this Idempotency-Key is still in progress',
    idempotencyKeyReusedRun: 'This Idempotency-Key was already used for a different run',
    activePlan: 'You already have an active monthly plan; cancel it before choosing another',
    planPaymentPending:
      'The payment of your monthly plan is still on its way; choose another plan once it has arrived or failed',
    paymentNotSettled: 'The payment has not been settled here yet; send the event again later',
    tooManyApiKeys: 'An account can hold at most {{max}} API keys',
    tooManyUnspokenChats:
      'You have {{max}} conversations started through the API with no message yet: send a message in one of them, or wait for them to expire',
    tooManyOAuthGrants: 'An account can have at most {{max}} connected apps',
    tooManyWebhooks: 'An account can hold at most {{max}} webhooks',
    tooManySchedules: 'An account can hold at most {{max}} schedules',
    scheduleExists: 'These saved answers already have a schedule: change that one instead',
    tooManySavedInputs: 'An account can keep at most {{max}} saved answers: delete some before saving more',
    savedInputNameTaken:
      'You already have saved answers named "{{name}}" for this workflow: choose another name',
    savedFileMissing: 'A file kept with these saved answers is no longer stored: upload it again',
    savedInputNeedsReview:
      "The workflow's questions have changed and these saved answers no longer fit: {{problems}}. Edit them and save them again before running them.",
    tooManyMcpStreams: 'This API key already has {{max}} open MCP streams; close one first',
    fileAlreadyUploaded: 'A file was already uploaded for this question: remove it before uploading another',
  },
  GONE: {
    default: 'This is no longer available',
    resultExpired:
      'This result file has expired: files are kept for a limited number of days after the run. Run the workflow again to get a new one.',
  },
  PAYLOAD_TOO_LARGE: {
    default: 'The request is too large',
    outputTooLarge:
      'output_data takes {{bytes}} bytes as JSON; at most {{max}} (64 KB) are accepted. Send a larger result as a file (file_data, a multipart file or file_url).',
    fileTooLarge: 'The result file is larger than {{mb}} MB',
    inputFileTooLarge: 'The file is larger than {{mb}} MB, the most this question accepts',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    default: 'This content type is not supported',
  },
  RANGE_NOT_SATISFIABLE: {
    default: 'The requested byte range is outside the file ({{size}} bytes)',
  },
  RATE_LIMITED: {
    default: 'Too many requests. Try again later.',
    signups: 'Too many new accounts from this address. Try again later.',
    signins: 'Too many failed sign-in attempts. Try again later.',
    passwordResets: 'Too many password reset requests. Try again later.',
    verificationMails: 'Too many verification mails asked for. Try again later.',
    wrongPasswords: 'Too many wrong passwords. Try again later.',
    llmCalls: 'Too many messages: try again in {{seconds}} s',
    eventStreams: 'You already follow {{max}} runs live, the most allowed at once; close one and try again',
  },
  INTERNAL_ERROR: {
    default: 'Internal server error',
  },
  BAD_GATEWAY: {
    default: 'An outside service did not answer as expected',
    translationFailed: 'Translation failed: {{reason}}',
    assistantUnavailable: 'The assistant is unavailable: {{reason}}',
    checkoutFailed: 'The payment provider could not start the checkout',
    cancelFailed: 'The payment provider could not cancel the subscription',
  },
  NOT_CONFIGURED: {
    default: 'This service is not available',
    translationNeedsLlm: 'Translation needs a language model: set LLM_BASE_URL (and LLM_MODEL)',
    stripeDisabled: 'Stripe payments are not enabled on this server',
  },
} as const satisfies Record<ErrorCode, { default: string } & Record<string, string>>;

/** Every language must have every text of every code: the compiler checks the shape. */
type Catalogue = { readonly [C in keyof typeof en]: { readonly [K in keyof (typeof en)[C]]: string } };

const es: Catalogue = {
  VALIDATION_ERROR: {
    default: 'Solicitud no válida',
    invalidRequest: 'Solicitud no válida: {{fields}}',
    valueNotStorable: 'Solicitud no válida: un valor no se puede guardar',
    passwordTooCommon: 'Esta contraseña es demasiado común. Elige una menos previsible.',
    unknownPlan: 'No existe ningún plan {{type}} llamado "{{planName}}"',
    planMismatch: 'El plan {{plan}} son {{credits}} créditos por ${{price}}',
    expectedJsonBody: 'Se esperaba un cuerpo JSON',
    invalidJsonBody: 'El cuerpo de la petición no es JSON válido',
    emptyJsonBody: 'El cuerpo de la petición está vacío, pero su Content-Type dice JSON',
    missingStripeSignature: 'Falta la cabecera Stripe-Signature',
    invalidWebhookSignature: 'La firma del webhook no es válida',
    ownerMissing: 'El propietario elegido no existe',
    invalidWorkflow: 'Workflow no válido: {{fields}}',
    dateRange:
      'El periodo debe terminar el mismo día o después de empezar y abarcar como mucho {{days}} días',
    wrongPassword: 'La contraseña no es correcta',
    sameEmail: 'Esta ya es tu dirección de correo',
    emptyChatMessage: 'El último mensaje debe ser un mensaje no vacío del usuario',
    chatMessageTooLong: 'Un mensaje puede tener como máximo {{max}} caracteres',
    configNotEditable: 'La entrada {{key}} no se puede editar',
    configInvalid: 'Valor no válido para {{key}}: {{message}}',
    outputTooDeep: 'output_data tiene más de {{max}} niveles de anidamiento',
    progressNeedsMessage: 'Una actualización de progreso necesita output_data.message',
    fileDataNotBase64: 'file_data no es base64 válido',
    fileUrlInvalid: 'file_url no es una URL válida',
    fileUrlNotHttp: 'file_url debe ser una URL http o https',
    invalidResult: 'Resultado no válido: {{fields}}',
    multipartUnreadable: 'No se pudo leer el cuerpo multipart',
    fileTypeNotAllowed: 'Tipo de archivo no permitido; envía uno de {{extensions}}',
    fileEmpty: 'El archivo está vacío',
    fileContentInvalid: 'El contenido del archivo no es un archivo .{{extension}} válido',
    expiryInPast: 'La caducidad debe estar en el futuro',
    cronInvalid:
      'La programación no es una expresión cron válida: indica cinco campos (minuto, hora, día del mes, mes, día de la semana), como "0 9 * * 1-5"',
    cronNeverRuns: 'Esta programación no se ejecutaría nunca',
    cronTooFrequent: 'Una programación puede ejecutarse como mucho una vez cada {{minutes}} minutos',
    timezoneUnknown: 'Zona horaria desconocida "{{timezone}}": usa un nombre IANA como Europe/Madrid',
    scheduleEndInPast: 'La fecha de fin debe estar en el futuro',
    chatTakesNoAnswers:
      'Un workflow de chat no lleva respuestas: inicia la ejecución sin ellas y envía sus mensajes a /api/v1/runs/{id}/messages',
    fileQuestionsNotSupported:
      'Este workflow pide archivos, que la API aún no puede enviar ({{fields}}); usa la aplicación web',
    uploadNeedsFile: 'Envía los campos multipart questionId y file',
    notAFileQuestion: 'Este workflow no tiene ninguna pregunta de archivo {{questionId}}',
    inputFileTypeNotAllowed: 'Esta pregunta solo admite archivos {{extensions}}',
    invalidAnswers: 'Revisa las respuestas: {{problems}}',
    chatCannotBeSaved:
      'Un workflow de chat no admite respuestas guardadas: cada ejecución es una conversación',
    runNeedsOneOf: 'Envía workflowId (con sus respuestas) o savedInputId, no ambos',
    answerUnknownQuestion: 'Este workflow no tiene esa pregunta',
    answerTwice: 'La pregunta tiene más de una respuesta',
    answerRequired: 'Esta pregunta necesita una respuesta',
    answerFileRequired: 'Sube un archivo para esta pregunta',
    answerNotNumber: 'Escribe un número',
    answerBelowMin: 'Escribe un número igual o mayor que {{min}}',
    answerAboveMax: 'Escribe un número igual o menor que {{max}}',
    answerOutOfRange: 'Escribe un número entre {{min}} y {{max}}',
    answerNotText: 'Escribe la respuesta como texto',
    answerTooLong: 'La respuesta puede tener como máximo {{max}} caracteres',
    answerUnknownOption: 'Elige una de las opciones: {{options}}',
    answerNotOptionList: 'Elige entre las opciones: {{options}}',
    answerFileWebOnly: 'Las preguntas de archivo solo se responden en la aplicación web',
    webhookUrlNotHttps: 'La dirección del webhook debe usar https',
    webhookAddressRefused: 'Esta dirección de webhook no está permitida: {{reason}}',
    webhookUnknownWorkflows: 'No hay ningún workflow con estos identificadores: {{ids}}',
    answerFileUnknown: 'La respuesta no es un archivo subido a esta ejecución para esta pregunta',
    mcpBatch: 'Envía un mensaje JSON-RPC por petición: no se aceptan lotes',
  },
  INVALID_TOKEN: {
    default: 'Este enlace no es válido: ya se usó, caducó o está incompleto',
  },
  UNAUTHENTICATED: {
    default: 'Debes iniciar sesión',
    invalidCredentials: 'Correo o contraseña incorrectos',
    invalidRunToken: 'Ejecución desconocida o token no válido',
    apiKeyRequired: 'Se necesita una clave de API válida (Authorization: Bearer flj_...)',
    metricsTokenRequired: 'Se necesita el token de métricas (Authorization: Bearer ...)',
  },
  INSUFFICIENT_CREDITS: {
    default: 'No tienes créditos suficientes para ejecutar este workflow',
  },
  SPENDING_LIMIT: {
    default: 'Esta ejecución superaría el límite mensual de créditos de la clave de API',
  },
  FORBIDDEN: {
    default: 'No tienes permiso para hacer esto',
    adminsOnly: 'Solo para administradores',
    fileLinkInvalid: 'Este enlace de archivo no es válido, o su ejecución ya terminó',
    crossSite: 'Solicitud entre sitios rechazada',
    reviewNeedsCompletedRun: 'Solo quien completó una ejecución de este workflow puede valorarlo',
    adminKeyScope: 'Solo los administradores pueden crear claves de API de administración',
    adminGrantScope: 'Solo un administrador puede dejar que una aplicación gestione Flujo',
    adminKeyRequired: "Esto necesita una clave de API de administración de un administrador (ámbito 'admin')",
    mcpForeignHost: 'Este servidor MCP no responde bajo este nombre de host',
    mcpForeignOrigin: 'Este servidor MCP no responde a páginas de este origen',
  },
  ACCOUNT_SUSPENDED: {
    default: 'Esta cuenta está suspendida',
    withContact: 'Esta cuenta está suspendida. Para preguntar el motivo o reclamar, escribe a {{email}}',
  },
  EMAIL_NOT_VERIFIED: {
    default:
      'Verifica tu dirección de correo antes de iniciar una ejecución: abre el enlace que te enviamos o pide uno nuevo',
    apiKey:
      'Las claves de API de esta cuenta funcionan cuando su dirección de correo está verificada: abre el enlace que te enviamos o pide uno nuevo',
  },
  NOT_FOUND: {
    default: 'Recurso no encontrado',
    account: 'Cuenta no encontrada',
    user: 'Usuario no encontrado',
    email: 'Correo no encontrado',
    workflow: 'Workflow no encontrado',
    execution: 'Ejecución no encontrada',
    result: 'Resultado no encontrado',
    configEntry: 'Entrada de configuración no encontrada',
    noActivePlan: 'No tienes ningún plan mensual activo',
    apiKey: 'Clave de API no encontrada',
    oauthInteraction:
      'Esta solicitud de autorización no existe o ha caducado: empieza de nuevo desde la aplicación',
    oauthGrant: 'Aplicación conectada no encontrada',
    inputFile: 'Archivo no encontrado',
    savedInput: 'Respuestas guardadas no encontradas',
    review: 'Valoración no encontrada',
    session: 'Sesión no encontrada',
    webhook: 'Webhook no encontrado',
    webhookDelivery: 'Entrega no encontrada',
    notification: 'Aviso no encontrado',
    schedule: 'Programación no encontrada',
    workflowVersion: 'Versión no encontrada',
  },
  WORKFLOW_PAUSED: {
    default: 'Este workflow no está disponible por ahora: está en pausa mientras se revisa su servicio',
  },
  CONFLICT: {
    default: 'La solicitud entra en conflicto con el estado actual',
    emailTaken: 'Ya existe una cuenta con este correo',
    alreadyVerified: 'Esta dirección de correo ya está verificada',
    accountSuspended: 'Esta cuenta está suspendida',
    adminCannotDelete:
      'Una cuenta de administrador no puede eliminarse a sí misma: pide a otro administrador que le quite el rol primero',
    cannotSuspendSelf: 'No puedes suspender tu propia cuenta',
    cannotRemoveOwnAdmin: 'No puedes quitarte tu propio rol de administrador',
    balanceBelowZero:
      'El saldo no puede quedar por debajo de cero: el usuario tiene {{credits}} créditos y se quitarían {{taken}}',
    smtpMissing: 'No hay ningún servidor SMTP configurado (SMTP_URL): no se pueden enviar correos',
    onlyFailedRetry: 'Solo se puede reintentar un correo fallido',
    deliveryNotRetriable:
      'Solo se puede volver a entregar una ejecución en curso que el servicio del workflow aún no aceptó',
    chatLimit: 'Esta conversación ha alcanzado su límite de {{max}} mensajes',
    notAChat: 'Este workflow es una encuesta, no un chat',
    runNotWaiting: 'Esta ejecución ya no espera una conversación',
    replyStopped: 'La respuesta se detuvo antes de terminar; el mensaje no se guardó',
    noPendingRun: 'No hay ninguna ejecución pendiente de este workflow: inicia una antes de chatear',
    runEnded: 'Esta ejecución ya ha terminado',
    runCompletedOrExpired: 'Esta ejecución ya se completó o ha caducado',
    idempotencyKeyReused: 'Esta Idempotency-Key ya se usó para otra compra',
    idempotencyKeyInProgress: 'Una compra con esta Idempotency-Key aún está en curso',
    idempotencyKeyReusedRun: 'Esta Idempotency-Key ya se usó para otra ejecución',
    activePlan: 'Ya tienes un plan mensual activo; cancélalo antes de elegir otro',
    planPaymentPending:
      'El pago de tu plan mensual aún está en camino; elige otro plan cuando haya llegado o fallado',
    paymentNotSettled: 'El pago aún no se ha liquidado aquí; vuelve a enviar el evento más tarde',
    tooManyApiKeys: 'Una cuenta puede tener como máximo {{max}} claves de API',
    tooManyUnspokenChats:
      'Tienes {{max}} conversaciones iniciadas por la API sin ningún mensaje: envía un mensaje en alguna o espera a que caduquen',
    tooManyOAuthGrants: 'Una cuenta puede tener como máximo {{max}} aplicaciones conectadas',
    tooManyWebhooks: 'Una cuenta puede tener como máximo {{max}} webhooks',
    tooManySchedules: 'Una cuenta puede tener como máximo {{max}} programaciones',
    scheduleExists: 'Estas respuestas guardadas ya tienen una programación: cambia esa',
    tooManySavedInputs:
      'Una cuenta puede conservar como máximo {{max}} respuestas guardadas: borra alguna antes de guardar más',
    savedInputNameTaken:
      'Ya tienes respuestas guardadas llamadas "{{name}}" para este workflow: elige otro nombre',
    savedFileMissing: 'Un archivo guardado con estas respuestas ya no está almacenado: vuelve a subirlo',
    savedInputNeedsReview:
      'Las preguntas del workflow han cambiado y estas respuestas guardadas ya no encajan: {{problems}}. Edítalas y vuelve a guardarlas antes de ejecutarlas.',
    tooManyMcpStreams: 'Esta clave de API ya tiene {{max}} conexiones MCP abiertas; cierra una antes',
    fileAlreadyUploaded: 'Ya se subió un archivo para esta pregunta: quítalo antes de subir otro',
  },
  GONE: {
    default: 'Esto ya no está disponible',
    resultExpired:
      'Este archivo de resultado ha caducado: los archivos se conservan un número limitado de días tras la ejecución. Vuelve a ejecutar el workflow para obtener uno nuevo.',
  },
  PAYLOAD_TOO_LARGE: {
    default: 'La solicitud es demasiado grande',
    outputTooLarge:
      'output_data ocupa {{bytes}} bytes como JSON; se aceptan como máximo {{max}} (64 KB). Envía un resultado mayor como archivo (file_data, un archivo multipart o file_url).',
    fileTooLarge: 'El archivo de resultado supera los {{mb}} MB',
    inputFileTooLarge: 'El archivo supera los {{mb}} MB, el máximo que admite esta pregunta',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    default: 'Este tipo de contenido no está admitido',
  },
  RANGE_NOT_SATISFIABLE: {
    default: 'El rango de bytes pedido está fuera del archivo ({{size}} bytes)',
  },
  RATE_LIMITED: {
    default: 'Demasiadas solicitudes. Inténtalo de nuevo más tarde.',
    signups: 'Demasiadas cuentas nuevas desde esta dirección. Inténtalo de nuevo más tarde.',
    signins: 'Demasiados intentos fallidos de inicio de sesión. Inténtalo de nuevo más tarde.',
    passwordResets: 'Demasiadas solicitudes de restablecimiento de contraseña. Inténtalo de nuevo más tarde.',
    verificationMails: 'Demasiados correos de verificación solicitados. Inténtalo de nuevo más tarde.',
    wrongPasswords: 'Demasiadas contraseñas incorrectas. Inténtalo de nuevo más tarde.',
    llmCalls: 'Demasiados mensajes: inténtalo de nuevo en {{seconds}} s',
    eventStreams:
      'Ya sigues {{max}} ejecuciones en vivo, el máximo a la vez; cierra una e inténtalo de nuevo',
  },
  INTERNAL_ERROR: {
    default: 'Error interno del servidor',
  },
  BAD_GATEWAY: {
    default: 'Un servicio externo no respondió como se esperaba',
    translationFailed: 'La traducción falló: {{reason}}',
    assistantUnavailable: 'El asistente no está disponible: {{reason}}',
    checkoutFailed: 'El proveedor de pagos no pudo iniciar el pago',
    cancelFailed: 'El proveedor de pagos no pudo cancelar la suscripción',
  },
  NOT_CONFIGURED: {
    default: 'Este servicio no está disponible',
    translationNeedsLlm: 'La traducción necesita un modelo de lenguaje: configura LLM_BASE_URL (y LLM_MODEL)',
    stripeDisabled: 'Los pagos con Stripe no están activados en este servidor',
  },
};

export const ERROR_TEXTS: Record<TLanguage, Catalogue> = { en, es };

/** The cases one code has texts for. */
export type ErrorTextKey<C extends ErrorCode> = keyof (typeof en)[C] & string;
export type ErrorParams = Readonly<Record<string, string | number>>;

/** Fills `{{name}}` from params; a name without a value stays visible rather than vanishing. */
export function interpolate(text: string, params: ErrorParams = {}): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** One error's text in one language (English when a case is somehow missing). */
export function errorText<C extends ErrorCode>(
  language: TLanguage,
  code: C,
  key: ErrorTextKey<C>,
  params?: ErrorParams,
): string {
  const texts = ERROR_TEXTS[language][code] as Readonly<Record<string, string>>;
  const fallback = ERROR_TEXTS.en[code] as Readonly<Record<string, string>>;
  return interpolate(texts[key] ?? fallback[key] ?? fallback.default ?? code, params);
}
