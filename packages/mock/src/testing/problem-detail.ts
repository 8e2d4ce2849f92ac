// What a refusal of the mock says, for the kit's messages: the problem JSON's detail.

/** The problem JSON's detail, or the text as it is (another server's answer). */
export function detailOf(text: string): string {
  try {
    return (JSON.parse(text) as { detail?: string }).detail ?? text
  } catch {
    return text
  }
}
