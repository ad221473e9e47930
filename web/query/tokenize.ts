// TEMPORARY stand-in until shared/tokenize.ts lands.
export function tokenize(text: string): string[] {
  return text.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter((t) => t !== '');
}
