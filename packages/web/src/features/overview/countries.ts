let names: Intl.DisplayNames | null = null;

/** A country's English name from the browser (Intl), or its code when the browser has none. */
export function countryName(code: string): string {
  try {
    names ??= new Intl.DisplayNames(['en-US'], { type: 'region' });
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}
