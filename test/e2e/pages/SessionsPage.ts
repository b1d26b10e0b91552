import { expect, type Locator, type Page } from '@playwright/test';
import type { AtriumPage } from './AtriumPage';

/**
 * Page object for sessions: the workspace's Sessions tab, the global list, the New session dialog
 * and the session view (transcript, permission cards, queue, input, Stop, Resume).
 */
export class SessionsPage {
  readonly tab: Locator;
  readonly panel: Locator;
  readonly sidebarEntry: Locator;
  readonly dialog: Locator;
  readonly view: Locator;
  readonly transcript: Locator;
  readonly input: Locator;
  readonly queue: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByRole('tab', { name: /^Sessions/ });
    this.panel = page.getByRole('tabpanel', { name: /^Sessions/ });
    this.sidebarEntry = page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: /^Sessions/ });
    this.dialog = page.getByRole('dialog', { name: 'New session' });
    this.view = page.locator('section.sess-view');
    this.transcript = page.getByRole('log', { name: 'Transcript' });
    this.input = page.getByRole('combobox', { name: 'Prompt' });
    this.queue = page.getByRole('region', { name: 'Queued prompts' });
  }

  async openTab(): Promise<void> {
    await this.tab.click();
    await expect(this.panel).toBeVisible();
  }

  /** Opens Atrium at `url`, selects the workspace named `workspace` and opens its Sessions tab. */
  async openWorkspaceSessions(atrium: AtriumPage, url: string, workspace = 'project'): Promise<void> {
    await atrium.open(url);
    await atrium.workspaceItem(workspace).click();
    await this.openTab();
  }

  /** Opens the New session dialog, picks `agentName`, types a first prompt (and a title) and starts. */
  async startSession(agentName: string, firstPrompt?: string, options: { title?: string } = {}): Promise<void> {
    await this.panel.getByRole('button', { name: /Start a session|New session/ }).click();
    await expect(this.dialog).toBeVisible();
    await this.dialog.getByRole('radio', { name: new RegExp(agentName) }).check();
    if (firstPrompt) await this.dialog.getByLabel('First prompt').fill(firstPrompt);
    if (options.title) await this.dialog.getByLabel('Title', { exact: true }).fill(options.title);
    await this.dialog.getByRole('button', { name: /Start session/ }).click();
    await expect(this.dialog).toBeHidden();
    await expect(this.view).toBeVisible();
  }

  /** The session id of the open session view (from its URL, `#/sessions/<id>`). */
  async sessionId(): Promise<string> {
    await expect(this.page).toHaveURL(/#\/sessions\/[^/]+$/);
    return decodeURIComponent(new URL(this.page.url()).hash.replace('#/sessions/', ''));
  }

  /** The session's state as the header badge reports it (`idle`, `busy`, `closed`, …). */
  state(): Locator {
    return this.view.locator('.sess-header [data-session-state]');
  }

  /** The one-line notice shown instead of the card when another attached surface was asked (permission routing). */
  permissionElsewhere(title: string): Locator {
    return this.page.getByRole('status', { name: `Permission request elsewhere: ${title}` });
  }

  /** The attached-surfaces list of the open Workspace panel, one item per surface. */
  attachedSurfaces(): Locator {
    return this.policyPanel().getByRole('region', { name: 'Attached surfaces' }).getByRole('listitem');
  }

  /** The label this page is known by to other surfaces (its own row in the attached list, "(this tab)"). */
  async ownSurfaceLabel(): Promise<string> {
    const own = this.policyPanel().locator('[data-here] .sess-surface-label');
    await expect(own).toHaveCount(1);
    return (await own.textContent())!.trim();
  }

  permissionCard(title: string | RegExp): Locator {
    return this.page.getByRole('region', { name: typeof title === 'string' ? `Permission request: ${title}` : title });
  }

  async send(text: string): Promise<void> {
    await this.input.fill(text);
    await this.input.press('Enter');
  }

  /** Items of the transcript of a kind (`user_message`, `agent_message`, `tool_call`, `notice`, `stop`, …). */
  items(kind: string): Locator {
    return this.transcript.locator(`.sess-item[data-kind="${kind}"]`);
  }

  button(name: string | RegExp): Locator {
    return this.view.getByRole('button', { name });
  }

  /** The handover code box of the open session (after "Hand over"). */
  handoverBox(): Locator {
    return this.page.getByRole('region', { name: 'Handover code' });
  }

  /** Clicks "Hand over" and returns the 4-character code shown. */
  async handOver(): Promise<string> {
    await this.button(/^Hand over$/).click();
    const code = this.handoverBox().getByLabel('Code', { exact: true });
    await expect(code).toHaveText(/^[A-Z2-9]{4}$/);
    return (await code.textContent())!.trim();
  }

  /** From the global Sessions list: "Pick up a session", type the code, and wait for the session view. */
  async pickUp(code: string): Promise<void> {
    await this.sidebarEntry.click();
    await this.page.getByRole('button', { name: 'Pick up a session' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Pick up a session' });
    await dialog.getByLabel('Handover code').fill(code);
    await dialog.getByRole('button', { name: 'Pick up', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(this.view).toBeVisible();
  }

  /** The "/" menu above the input. */
  slashMenu(): Locator {
    return this.page.getByRole('listbox', { name: 'Slash commands' });
  }

  /** A labelled group of the "/" menu: `Agent commands` or `Workspace commands`. */
  slashGroup(name: 'Agent commands' | 'Workspace commands'): Locator {
    return this.slashMenu().getByRole('group', { name: new RegExp(`^${name}`) });
  }

  /** The inline preview of the workspace command the input invokes. */
  slashPreview(): Locator {
    return this.page.getByRole('region', { name: /^Preview of \// });
  }

  /** The find-in-transcript bar (Ctrl+F or the Find button). */
  findBar(): Locator {
    return this.page.getByRole('search', { name: 'Find in transcript' });
  }

  /** Opens find in transcript with the keyboard and types `query`. */
  async find(query: string): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+f');
    await expect(this.findBar()).toBeVisible();
    await this.findBar().getByRole('searchbox', { name: 'Find in transcript' }).fill(query);
  }

  /** The find bar's count ("3 of 12", "No matches"). */
  findCount(): Locator {
    return this.findBar().getByRole('status');
  }

  /** The transcript item (row, or a tool call inside an open group) with this id. */
  item(id: number): Locator {
    return this.transcript.locator(`[data-item-id="${id}"]`);
  }

  /** The current find match (outlined). */
  currentMatch(): Locator {
    return this.transcript.locator('.sess-item-current');
  }

  /** Compact rows that stand for runs of read/search tool calls. */
  toolGroups(): Locator {
    return this.transcript.locator('.sess-item[data-kind="tool_group"]');
  }

  /** The filter box over a sessions list (global list or a workspace's Sessions tab). */
  sessionFilter(): Locator {
    return this.page.getByRole('searchbox', { name: 'Filter sessions' });
  }

  /** The Diagnostics side panel of the open session. */
  diagnostics(): Locator {
    return this.page.getByRole('complementary', { name: 'Diagnostics' });
  }

  /** One fact of the Diagnostics panel (the `<dd>` after the term `term`: Process, Command, Exit, …). */
  diagnosticsFact(term: string): Locator {
    return this.diagnostics().locator(`dt:text-is("${term}") + dd`);
  }

  /** This page's own surface label as the session header shows it. */
  ownSurfaceHeader(): Locator {
    return this.view.getByTestId('surface-here');
  }

  /** The Workspace (session policy) side panel. */
  policyPanel(): Locator {
    return this.page.getByRole('complementary', { name: 'Workspace policy' });
  }
}
