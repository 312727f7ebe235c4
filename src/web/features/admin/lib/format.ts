// The admin screens format through the app's one place, so their dates match the user screens'.
export { formatDateTime, formatSigned } from '#web/lib/format';
