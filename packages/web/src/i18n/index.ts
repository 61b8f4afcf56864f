import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from './en-US.json';

/**
 * The en-US catalogue: `en-US.json` plus one file per domain under `en-US/` (monitoring.json,
 * network.json, …), each holding its own top-level keys, so that domains add their texts without
 * touching one shared file. A key defined twice is a mistake: the test in catalogue.test.ts finds it.
 */
const domainFiles = import.meta.glob<Record<string, unknown>>('./en-US/*.json', {
  eager: true,
  import: 'default',
});

export const catalogue: Record<string, unknown> = { ...enUS };
for (const file of Object.values(domainFiles)) Object.assign(catalogue, file);

export const resources = { 'en-US': { translation: catalogue } } as const;

void i18n.use(initReactI18next).init({
  resources,
  lng: 'en-US',
  fallbackLng: 'en-US',
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18n;
