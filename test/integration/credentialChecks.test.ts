// Setting credentials as a person does it, in a real extension host: the prompts are numbered as
// they are seen and name the environment they change; a secret the service rejects is offered
// back (Re-enter, Keep Anyway, Cancel) instead of being saved silently; and rejected credentials
// give the Records view one clear node, not one 401 per resource.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Sandbox, startSandbox } from '../../src/sandbox/server';
import { DEFAULT_ENVIRONMENT, SANDBOX_ENVIRONMENT } from '../../src/extension/account/environments';
import { extensionApi, resetSettings, setSetting, treeRoots, waitFor, withSandbox } from './support/extension';

const SECRET = 'itest-checks-secret-51c2';
const WRONG = 'itest-checks-wrong-9f3a';

interface Prompt { title?: string; prompt?: string }

/**
 * Answers the credential prompts from a queue (undefined: the person pressed Escape) and the
 * modal question with `choices` in turn; records what each prompt said.
 */
function answerPrompts(inputs: Array<string | undefined>, choices: Array<string | undefined> = []): { prompts: Prompt[]; questions: string[]; restore: () => void } {
  const win = vscode.window as unknown as Record<string, unknown>;
  const saved = { showInputBox: win.showInputBox, showWarningMessage: win.showWarningMessage, showInformationMessage: win.showInformationMessage, showErrorMessage: win.showErrorMessage };
  const prompts: Prompt[] = [];
  const questions: string[] = [];
  win.showInputBox = (options: vscode.InputBoxOptions = {}) => {
    prompts.push({ title: options.title, prompt: options.prompt });
    return Promise.resolve(inputs.shift());
  };
  win.showWarningMessage = (text: string, ...rest: unknown[]) => {
    const options = rest[0] as vscode.MessageOptions | undefined;
    questions.push(`${text}\n${options?.detail ?? ''}\n${rest.filter((r) => typeof r === 'string').join('|')}`);
    return Promise.resolve(choices.shift());
  };
  win.showInformationMessage = () => Promise.resolve(undefined);
  win.showErrorMessage = () => Promise.resolve(undefined);
  return { prompts, questions, restore: () => Object.assign(win, saved) };
}

describe('credential prompts and checks', function () {
  this.timeout(60_000);
  let service: Sandbox;
  let answers: ReturnType<typeof answerPrompts> | undefined;

  before(async () => {
    service = await startSandbox({ port: 0, days: 5, seed: 'credential-checks', clientId: 'checks-client', clientSecret: SECRET });
  });

  beforeEach(async () => {
    const api = await extensionApi();
    await api.sandbox.stop();
    await api.session.credentials.clear(DEFAULT_ENVIRONMENT);
    await resetSettings();
  });

  afterEach(() => {
    answers?.restore();
    answers = undefined;
  });

  after(async () => {
    const api = await extensionApi();
    await api.session.credentials.clear(DEFAULT_ENVIRONMENT);
    await resetSettings();
    await service.close();
  });

  it('numbers the prompts a person sees: (1/3) with the address to ask, (1/2) when it is set', async () => {
    answers = answerPrompts([service.url, 'checks-client', SECRET]);
    assert.equal(await vscode.commands.executeCommand('healthData.setCredentials'), true);
    assert.deepEqual(answers.prompts.map((p) => p.title), [
      'Health Data: Set Client Credentials for Default (1/3)',
      'Health Data: Set Client Credentials for Default (2/3)',
      'Health Data: Set Client Credentials for Default (3/3)',
    ]);
    answers.restore();

    answers = answerPrompts(['checks-client', SECRET]);
    assert.equal(await vscode.commands.executeCommand('healthData.setCredentials'), true);
    assert.deepEqual(answers.prompts.map((p) => p.title), [
      'Health Data: Set Client Credentials for Default (1/2)',
      'Health Data: Set Client Credentials for Default (2/2)',
    ]);
    assert.deepEqual(answers.questions, [], 'right credentials: nothing to ask');
  });

  it('with the local sandbox active, the first prompt says which environment it changes', async () => {
    const api = await withSandbox();
    assert.equal(api.session.active?.name, SANDBOX_ENVIRONMENT);
    answers = answerPrompts([undefined]);
    assert.equal(await vscode.commands.executeCommand('healthData.setCredentials'), false);
    assert.match(answers.prompts[0].title ?? '', /for Default \(1\/3\)/);
    assert.match(answers.prompts[0].prompt ?? '', /This sets up "Default", which then becomes active instead of "Local sandbox"/);
    assert.equal(api.session.active?.name, SANDBOX_ENVIRONMENT, 'Escape changed nothing');
    answers.restore();

    await setSetting('baseUrl', service.url);
    answers = answerPrompts([undefined]);
    await vscode.commands.executeCommand('healthData.setCredentials');
    assert.match(answers.prompts[0].title ?? '', /for Default \(1\/2\)/);
    assert.match(answers.prompts[0].prompt ?? '', /^Client id of your application \(This sets up "Default", which then becomes active instead of "Local sandbox"\.\)$/);
  });

  it('a secret the service rejects: Re-enter asks again, and the right one is saved', async () => {
    const api = await extensionApi();
    await setSetting('baseUrl', service.url);
    answers = answerPrompts(['checks-client', WRONG, 'checks-client', SECRET], ['Re-enter']);
    assert.equal(await vscode.commands.executeCommand('healthData.setCredentials'), true);
    assert.equal(answers.questions.length, 1, answers.questions.join('\n---\n'));
    assert.match(answers.questions[0], /^The service rejected the client id or secret for Default\.\n.*401.*\n\nRe-enter them, keep them anyway.*\nRe-enter\|Keep Anyway$/s);
    assert.ok(!answers.questions[0].includes(WRONG), 'the secret is not repeated');
    assert.deepEqual(answers.prompts.map((p) => p.title?.replace('Health Data: Set Client Credentials for ', '')), ['Default (1/2)', 'Default (2/2)', 'Default (1/2)', 'Default (2/2)']);
    assert.equal(await api.session.credentials.get(DEFAULT_ENVIRONMENT, 'clientSecret'), SECRET);
  });

  it('a secret the service rejects: Cancel puts back what was there, environment included', async () => {
    const api = await withSandbox();
    await setSetting('baseUrl', service.url);
    await setSetting('clientId', 'checks-client');
    await api.session.credentials.store(DEFAULT_ENVIRONMENT, 'clientSecret', SECRET);
    answers = answerPrompts(['someone-else', WRONG], [undefined]);
    assert.equal(await vscode.commands.executeCommand('healthData.setCredentials', { environment: DEFAULT_ENVIRONMENT }), false);
    assert.equal(answers.questions.length, 1);
    assert.equal(await api.session.credentials.get(DEFAULT_ENVIRONMENT, 'clientSecret'), SECRET);
    assert.equal(vscode.workspace.getConfiguration('healthData').get('clientId'), 'checks-client');
    assert.equal(api.session.active?.name, SANDBOX_ENVIRONMENT, 'the environment in use before is in use again');
  });

  it('a secret the service rejects: Keep Anyway keeps it, and the Records view shows one readable credentials node', async () => {
    const api = await extensionApi();
    await setSetting('baseUrl', service.url);
    answers = answerPrompts(['checks-client', WRONG], ['Keep Anyway']);
    assert.equal(await vscode.commands.executeCommand('healthData.setCredentials'), true);
    assert.equal(await api.session.credentials.get(DEFAULT_ENVIRONMENT, 'clientSecret'), WRONG);
    await api.tree.refresh();
    const roots = await waitFor('one credentials node', async () => {
      const found = await treeRoots(api);
      return found.length === 1 && found[0].id === 'credentialsRejected' ? found : undefined;
    }, 20_000);
    const item = api.tree.getTreeItem(roots[0]);
    const label = typeof item.label === 'string' ? item.label : item.label?.label ?? '';
    assert.equal(label, 'The service did not accept the credentials of "Default"');
    assert.equal(item.description, 'Set Client Credentials to enter them again');
    assert.equal(item.command?.command, 'healthData.setCredentials');
    assert.deepEqual(item.command?.arguments, [{ environment: DEFAULT_ENVIRONMENT }]);
    const tooltip = String(item.tooltip);
    assert.match(tooltip, /401 Unauthorized/);
    assert.match(tooltip, /check the client id and client secret/, 'the advice is whole');
    assert.ok(!tooltip.includes(WRONG));
    // The right secret: the resources come back.
    await api.session.credentials.store(DEFAULT_ENVIRONMENT, 'clientSecret', SECRET);
    await api.tree.refresh();
    await waitFor('the resources', async () => ((await treeRoots(api)).filter((n) => n.type === 'resource').length === 3 ? true : undefined), 20_000);
  });
});
