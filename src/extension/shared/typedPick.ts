// A pick list that also takes what is typed into it. As the person types, an item of its own (the
// active one) says what the text will do (the range or the date it names), or why it cannot be
// used; the usual items stay, filtered as usual. Enter on the problem keeps the list open, so the
// text can be fixed.

import * as vscode from 'vscode';

/** What `read` makes of the text typed so far: an item to pick, a problem to show, or nothing (the list filters as usual). */
export type TypedReading<T> = { readonly item: T } | { readonly problem: string } | undefined;

type ProblemItem = vscode.QuickPickItem & { readonly problem: true };

const isProblem = (item: vscode.QuickPickItem): item is ProblemItem => (item as Partial<ProblemItem>).problem === true;

/** Whether the text is part of an item's label, as the list's filter would keep it. */
export function matchesAnItem(items: readonly vscode.QuickPickItem[], text: string): boolean {
  const t = text.trim().toLowerCase();
  return t !== '' && items.some((i) => i.kind !== vscode.QuickPickItemKind.Separator && i.label.toLowerCase().includes(t));
}

/** Shows `items`, and the item `read` makes of the typed text; the item picked, or undefined when dismissed. */
export function pickOrType<T extends vscode.QuickPickItem>(
  items: readonly T[],
  options: {
    readonly title: string;
    readonly placeHolder: string;
    /** Said when the text is nothing `read` takes and matches no item (the list would be empty): what can be typed. */
    readonly hint?: string;
  },
  read: (text: string) => TypedReading<T>,
): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve) => {
    const pick = vscode.window.createQuickPick<T | ProblemItem>();
    pick.title = options.title;
    pick.placeholder = options.placeHolder;
    pick.items = items;
    let settled = false;
    const settle = (value: T | undefined): void => {
      if (settled) return;
      settled = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidChangeValue((text) => {
      let reading = read(text);
      // A text on its way to an item offered (2026-11-2 of 2026-11-22) is not yet wrong: the items it matches are shown alone.
      if (reading !== undefined && 'problem' in reading && matchesAnItem(items, text)) reading = undefined;
      // A text that neither names anything nor matches an item would leave an empty list and an Enter that does nothing.
      if (reading === undefined && options.hint !== undefined && text.trim() !== '' && !matchesAnItem(items, text)) reading = { problem: options.hint };
      const typed: T | ProblemItem | undefined =
        reading === undefined ? undefined : 'item' in reading ? { ...reading.item, alwaysShow: true } : { label: `$(warning) ${reading.problem}`, alwaysShow: true, problem: true };
      pick.items = typed ? [typed, ...items] : items;
      if (typed) pick.activeItems = [typed];
    });
    pick.onDidAccept(() => {
      const chosen = pick.activeItems[0];
      if (chosen === undefined || isProblem(chosen)) return;
      settle(chosen);
    });
    pick.onDidHide(() => settle(undefined));
    pick.show();
  });
}
