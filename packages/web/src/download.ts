/**
 * Saves a blob as a file through an object URL and a temporary link: the only way a page
 * can hand bytes it fetched itself (with the key in a header) to the browser's downloads.
 *
 * @example
 * saveBlob(new Blob([markdown], { type: 'text/markdown' }), 'README.md');
 */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; the delay only lets slow browsers read the URL.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/**
 * Copies text to the clipboard; false when the browser refuses (no secure context, denied).
 *
 * @example
 * if (!(await copyText(markdown))) showHint();
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
