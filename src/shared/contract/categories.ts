import type { TBilingual } from './common.js';

/** The ten catalogue categories, as Spanish/English label pairs. */
export const CATEGORIES: ReadonlyArray<{ key: string; name: TBilingual }> = [
  { key: 'marketing', name: { es: 'Marketing', en: 'Marketing' } },
  { key: 'administration', name: { es: 'Administración', en: 'Administration' } },
  { key: 'data-ai', name: { es: 'Datos e IA', en: 'Data & AI' } },
  { key: 'communications', name: { es: 'Comunicaciones', en: 'Communications' } },
  { key: 'management', name: { es: 'Gestión', en: 'Management' } },
  { key: 'sales', name: { es: 'Ventas', en: 'Sales' } },
  { key: 'hr', name: { es: 'Recursos Humanos', en: 'Human Resources' } },
  { key: 'operations', name: { es: 'Operaciones', en: 'Operations' } },
  { key: 'legal', name: { es: 'Legal', en: 'Legal' } },
  { key: 'other', name: { es: 'Otros', en: 'Other' } },
];
