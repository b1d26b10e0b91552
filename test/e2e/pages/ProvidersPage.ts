import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for Settings → Providers and keys and a workspace's Agent settings tab. */
export class ProvidersPage {
  readonly main: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole('main');
  }

  async openSettings(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: 'Settings' }).click();
    await expect(this.main.getByRole('heading', { name: 'Providers and keys' })).toBeVisible();
  }

  row(id: string): Locator {
    return this.main.getByTestId(`provider-${id}`);
  }

  async addProvider(p: { id: string; name: string; kind: string; baseUrl: string; key: string }): Promise<void> {
    await this.main.getByRole('button', { name: 'Add provider' }).click();
    const form = this.main.getByRole('form', { name: 'Add a provider' });
    await form.getByLabel('Id (for the command line)').fill(p.id);
    await form.getByLabel('Name', { exact: true }).fill(p.name);
    await form.getByLabel('Kind', { exact: true }).selectOption({ label: p.kind });
    await form.getByLabel(/Base URL/).fill(p.baseUrl);
    await form.getByLabel('Key (optional now)').fill(p.key);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(this.row(p.id)).toBeVisible();
  }

  async testConnection(id: string): Promise<Locator> {
    await this.row(id).getByRole('button', { name: 'Test connection' }).click();
    const status = this.row(id).getByRole('status');
    await expect(status).toBeVisible();
    return status;
  }

  async rotateKey(id: string, name: string, key: string): Promise<void> {
    await this.row(id).getByRole('button', { name: 'Rotate key' }).click();
    await this.row(id).getByLabel(`Key for ${name}`).fill(key);
    await this.row(id).getByRole('button', { name: 'Save key' }).click();
  }

  /** Removes a provider, accepting every confirmation (a provider in use asks twice); returns the confirmations' texts. */
  async remove(id: string): Promise<string[]> {
    const messages: string[] = [];
    const accept = (d: { message(): string; accept(): Promise<void> }) => {
      messages.push(d.message());
      void d.accept();
    };
    this.page.on('dialog', accept);
    await this.row(id).getByRole('button', { name: 'Remove' }).click();
    await expect(this.row(id)).toHaveCount(0);
    this.page.off('dialog', accept);
    return messages;
  }

  /** The Overview's "Needs you" row for repository model endpoints withheld until approved. */
  needsEndpoint(): Locator {
    return this.main.getByTestId('needs-endpoint');
  }

  async openAgentSettings(): Promise<void> {
    await this.main.getByRole('tab', { name: 'Agent settings' }).click();
  }

  agentRow(agentId: string): Locator {
    return this.main.getByTestId(`agent-setting-${agentId}`);
  }

  async chooseProvider(agentId: string, agentName: string, providerName: string, model: string): Promise<void> {
    const row = this.agentRow(agentId);
    await row.getByLabel(`Provider for ${agentName}`).selectOption({ label: providerName });
    await row.getByLabel(`Default model for ${agentName}`).fill(model);
    await row.getByLabel(`Default model for ${agentName}`).press('Enter');
  }

  endpoint(path: string): Locator {
    return this.main.getByTestId(`endpoint-${path}`);
  }
}
