// What a command prints of a page (its title, text, links, a robots.txt line) comes from a server
// anyone may run. Control characters in it would reach the user's terminal as commands: ESC starts
// sequences that clear the screen, set the window title, recolour or hide text; C1 CSI (U+009B) does
// the same on some terminals. Human-readable output shows each such character as a visible escape
// instead (`\x1b`), as git and less do; newlines and tabs, which the formatters write, stay. JSON
// output needs none of this: JSON.stringify escapes C0, and it is read by programs.

/** C0 controls except tab and newline, DEL, and the C1 controls. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `text` with every control character but tab and newline shown as a visible `\xNN` escape. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
