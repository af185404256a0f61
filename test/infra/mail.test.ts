// Mail in a new account, as synthesized (issue 38 item 4): the support mail's SES grant covers what SES checks (the
// sender's and, for the sandbox, the recipient's identities, and the configuration set named), the user pool mails
// through SES from authFromEmail when it is set and through Cognito's own sender otherwise (never because only the
// support sender is set), synth warns when that would move sign-up codes into an SES sandbox (issue 47 item 4), and a
// failed support mail wakes an operator (an alarm on the SupportMailFailed metric).
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthModelLoop, type Synthesized } from './synth.js';

let withMail: Synthesized;
let plain: Synthesized;
beforeAll(() => {
  withMail = synthModelLoop({
    nag: false,
    context: {
      supportEmail: 'help@support.example',
      supportFromEmail: 'studio@mail.example',
      authFromEmail: 'studio@mail.example',
      sesSandbox: false,
      sesConfigurationSet: 'modelloop-mail',
    },
  });
  plain = synthModelLoop({ nag: false });
});
afterAll(() => {
  withMail?.dispose();
  plain?.dispose();
});

type Statement = { Action: string | string[]; Resource: unknown };
const resourcesOf = (synth: Synthesized, type: string) => Object.entries(synth.json.Resources).filter(([, resource]) => resource.Type === type);
const statementsOfRole = (synth: Synthesized, roleId: string): Statement[] =>
  resourcesOf(synth, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties?.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as Statement[]);
const sesStatements = (synth: Synthesized) =>
  resourcesOf(synth, 'AWS::Lambda::Function').flatMap(([id, fn]) =>
    statementsOfRole(synth, (fn.Properties!.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0]).filter((statement) => JSON.stringify(statement.Action).includes('ses:')).map((statement) => ({ id, statement })),
  );

describe('support mail through SES', () => {
  it('lets only the support ticket and contact request functions send, from the sender, to the support address and through the configuration set named', () => {
    const statements = sesStatements(withMail).filter(({ id }) => !id.startsWith('WorkflowsAccountExportMailExportFunction'));
    expect(statements.map(({ id }) => id).sort()).toEqual([expect.stringMatching(/^HttpApiCreateContactRequestFunction/), expect.stringMatching(/^HttpApiCreateSupportTicketFunction/)]);
    for (const { statement } of statements) {
      expect(statement.Action).toBe('ses:SendEmail');
      const resources = JSON.stringify(statement.Resource);
      for (const identity of ['identity/studio@mail.example', 'identity/mail.example', 'identity/help@support.example', 'identity/support.example', 'configuration-set/modelloop-mail']) {
        expect(resources, identity).toContain(identity);
      }
      expect(resources).not.toContain('*');
    }
  });

  it('lets the export mail send from the sender only (to any seller), with a link to the web app', () => {
    const [exportMail, ...others] = sesStatements(withMail).filter(({ id }) => id.startsWith('WorkflowsAccountExportMailExportFunction'));
    expect(others).toEqual([]);
    const resources = JSON.stringify(exportMail!.statement.Resource);
    for (const granted of ['identity/studio@mail.example', 'identity/mail.example', 'configuration-set/modelloop-mail']) expect(resources, granted).toContain(granted);
    expect(resources).not.toContain('support.example');
    expect(resources).not.toContain('*');
    const [fn] = resourcesOf(withMail, 'AWS::Lambda::Function').filter(([id]) => id === exportMail!.id);
    expect(Object.keys(fn![1].Properties!.Environment.Variables)).toEqual(expect.arrayContaining(['SUPPORT_EMAIL_FROM', 'SES_CONFIGURATION_SET', 'WEB_URL']));
  });

  it('names the configuration set in the function environment, and grants nothing without supportEmail', () => {
    const [fn] = resourcesOf(withMail, 'AWS::Lambda::Function').filter(([id]) => id.startsWith('HttpApiCreateSupportTicketFunction'));
    expect(fn![1].Properties!.Environment.Variables).toMatchObject({ SUPPORT_EMAIL_TO: 'help@support.example', SUPPORT_EMAIL_FROM: 'studio@mail.example', SES_CONFIGURATION_SET: 'modelloop-mail' });
    expect(sesStatements(plain)).toEqual([]);
  });

  it('alarms on a single failed support mail', () => {
    // A metric with a label is written in the alarm's Metrics list.
    const alarms = resourcesOf(withMail, 'AWS::CloudWatch::Alarm').filter(([, alarm]) => JSON.stringify(alarm.Properties).includes('"SupportMailFailed"'));
    expect(alarms).toHaveLength(1);
    const properties = alarms[0]![1].Properties!;
    expect(properties).toMatchObject({ Threshold: 1, TreatMissingData: 'notBreaching', ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(properties.Metrics).toEqual([expect.objectContaining({ MetricStat: expect.objectContaining({ Metric: expect.objectContaining({ Namespace: 'ModelLoop', MetricName: 'SupportMailFailed' }), Stat: 'Sum' }) })]);
    expect(alarms[0]![1].Properties!.AlarmActions).toBeDefined();
  });
});

describe("the user pool's mail", () => {
  it('goes through SES (DEVELOPER) from the stage sender when authFromEmail is set', () => {
    const [pool] = resourcesOf(withMail, 'AWS::Cognito::UserPool');
    const email = pool![1].Properties!.EmailConfiguration;
    expect(email).toMatchObject({ EmailSendingAccount: 'DEVELOPER', From: 'ModelLoop <studio@mail.example>', ConfigurationSet: 'modelloop-mail' });
    expect(JSON.stringify(email.SourceArn)).toContain('identity/studio@mail.example');
  });

  it("uses Cognito's own sender (50 mails a day) without a sender, with the same verification texts", () => {
    const [pool] = resourcesOf(plain, 'AWS::Cognito::UserPool');
    expect(pool![1].Properties!.EmailConfiguration).toMatchObject({ EmailSendingAccount: 'COGNITO_DEFAULT' });
    const [mailPool] = resourcesOf(withMail, 'AWS::Cognito::UserPool');
    expect(pool![1].Properties!.VerificationMessageTemplate).toEqual(mailPool![1].Properties!.VerificationMessageTemplate);
  });

  it('takes authFromEmail over supportFromEmail, and refuses one that is not an address', () => {
    const own = synthModelLoop({ nag: false, context: { supportEmail: 'help@support.example', supportFromEmail: 'studio@mail.example', authFromEmail: 'codes@mail.example', sesSandbox: false } });
    const [pool] = resourcesOf(own, 'AWS::Cognito::UserPool');
    expect(pool![1].Properties!.EmailConfiguration).toMatchObject({ EmailSendingAccount: 'DEVELOPER', From: 'ModelLoop <codes@mail.example>' });
    own.dispose();
    expect(() => synthModelLoop({ nag: false, context: { authFromEmail: 'not-an-address' } })).toThrow(/authFromEmail/);
  });
});

describe('the mail trap: sign-up codes in the SES sandbox', () => {
  const warnings = (synth: Synthesized) => Annotations.fromStack(synth.stack).findWarning('*', Match.anyValue()).map((warning) => String(warning.entry.data));

  it('never moves sign-up codes to SES because only the support sender is set, and says so at synth', () => {
    const supportOnly = synthModelLoop({ nag: false, context: { supportEmail: 'help@support.example', supportFromEmail: 'studio@mail.example' } });
    const [pool] = resourcesOf(supportOnly, 'AWS::Cognito::UserPool');
    expect(pool![1].Properties!.EmailConfiguration).toMatchObject({ EmailSendingAccount: 'COGNITO_DEFAULT' });
    expect(pool![1].Properties!.EmailConfiguration.From).toBeUndefined();
    expect(warnings(supportOnly)).toEqual([expect.stringMatching(/sign-up and password codes stay with Cognito's own sender.*Set context authFromEmail/)]);
  });

  it('warns when authFromEmail would move sign-up codes to SES on an account the config says is in the sandbox (the default)', () => {
    const sandbox = synthModelLoop({ nag: false, context: { authFromEmail: 'codes@mail.example' } });
    expect(warnings(sandbox)).toEqual([expect.stringMatching(/authFromEmail \(codes@mail\.example\).*sesSandbox.*only to verified addresses.*-c sesSandbox=false/)]);
    // Out of the sandbox: nothing to say.
    expect(warnings(withMail)).toEqual([]);
    expect(warnings(plain)).toEqual([]);
    expect(() => synthModelLoop({ nag: false, context: { sesSandbox: 'maybe' } })).toThrow(/sesSandbox must be true or false/);
  });
});
