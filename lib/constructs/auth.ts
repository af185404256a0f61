// Identity: a Cognito user pool with e-mail sign-in, self sign-up, optional TOTP MFA and e-mail recovery, one public
// web client (SRP), and Google sign-in through the hosted UI when a Google OAuth client is configured.
import { Aws, Duration, Fn, Lazy, RemovalPolicy, SecretValue, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  OAuthScope,
  ProviderAttribute,
  UserPool,
  UserPoolClient,
  UserPoolClientIdentityProvider,
  UserPoolDomain,
  UserPoolEmail,
  UserPoolIdentityProviderGoogle,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { PASSWORD_POLICY } from '../../lambdas/contracts/password-policy.js';
import type { GoogleSignIn } from '../config.js';

/** How long a cloud ID or access token is valid (Cognito allows 5 minutes to a day). */
export const ID_TOKEN_VALIDITY = Duration.minutes(15);

/** Where the hosted UI sends users back to after social sign-in: the web app's sign-in page. */
export const SIGN_IN_RETURN_PATH = '/auth';

export interface AuthProps {
  stage: string;
  /** Where the hosted UI may send users back to (Google sign-in only). */
  webOrigins: string[];
  google?: GoogleSignIn;
  /** Hosted UI domain prefix; default modelloop-<stage>-<account id>. */
  domainPrefix?: string;
  /** Keep the user pool (with deletion protection) when the stack is deleted. */
  retain: boolean;
  /**
   * The SES-verified sender of the pool's mail (sign-up codes, password resets). Without it Cognito's default sender
   * mails them, which "allows only a limited number of emails each day for your user pool" (EmailConfigurationType,
   * COGNITO_DEFAULT; Quotas in Amazon Cognito: 50 a day): too few for a launch.
   */
  emailFrom?: string;
  /** The SES configuration set the pool's mail names (only with emailFrom). */
  sesConfigurationSet?: string;
}

/** The verification mail's texts (the same through either sender). */
export const VERIFICATION_EMAIL = { subject: 'Your ModelLoop verification code', body: 'Your ModelLoop verification code is {####}' } as const;

export class Auth extends Construct {
  readonly userPool: UserPool;
  readonly webClient: UserPoolClient;
  /** The `iss` of the pool's tokens, for JWT authorizers. */
  readonly issuer: string;
  /** The hosted UI, present only with Google sign-in. */
  readonly domain?: UserPoolDomain;
  private readonly returnOrigins: string[];

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);

    this.userPool = new UserPool(this, 'UserPool', {
      signInAliases: { email: true },
      signInCaseSensitive: false,
      selfSignUpEnabled: true,
      autoVerify: { email: true },
      userVerification: { emailSubject: VERIFICATION_EMAIL.subject, emailBody: VERIFICATION_EMAIL.body },
      // With a sender, through SES (EmailSendingAccount DEVELOPER): "the email delivery limits are the same limits
      // that apply to your Amazon SES verified email address" (Cognito API reference, EmailConfigurationType). The
      // reference lists the verification texts among what COGNITO_DEFAULT doesn't allow; CDK sends a
      // VerificationMessageTemplate for every pool, and pools with the default sender take it, so the texts stay the
      // same either way. In the SES sandbox, SES delivers only to verified addresses: docs/deploy.md says to leave the
      // sender unset until the account has production access.
      email: props.emailFrom
        ? UserPoolEmail.withSES({
            fromEmail: props.emailFrom,
            fromName: 'ModelLoop',
            // The stack's own region (a token in an environment-agnostic synth, which withSES needs named).
            sesRegion: Stack.of(this).region,
            ...(props.sesConfigurationSet ? { configurationSetName: props.sesConfigurationSet } : {}),
          })
        : UserPoolEmail.withCognito(),
      keepOriginal: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // The one policy (lambdas/contracts/password-policy.ts): the twin enforces it and the sign-up form lists it.
      passwordPolicy: { ...PASSWORD_POLICY, tempPasswordValidity: Duration.days(3) },
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: props.retain,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason: 'The product offers TOTP MFA as an opt-in enrolment for every user; requiring it at sign-up would turn away sellers who never asked for it.',
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG8',
      reason: 'Essentials plan: the Plus plan (threat protection) is a per-user cost the product does not budget for yet; strong passwords and optional TOTP MFA are enforced by the pool itself.',
    });
    this.issuer = `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${this.userPool.userPoolId}`;

    const google = props.google && this.addGoogle(props.google);
    if (google) {
      this.domain = this.userPool.addDomain('HostedUi', {
        cognitoDomain: { domainPrefix: props.domainPrefix ?? Fn.join('-', ['modelloop', props.stage, Aws.ACCOUNT_ID]) },
      });
    }

    this.returnOrigins = props.webOrigins.filter((origin) => origin !== '*');
    // Lazy: the web app's own (CloudFront) origin is known only after this client exists; see addReturnOrigin.
    const returnUrls = Lazy.list({
      produce: () => this.returnOrigins.flatMap((origin) => [`${origin}/`, `${origin}${SIGN_IN_RETURN_PATH}`]),
    });
    this.webClient = this.userPool.addClient('WebClient', {
      generateSecret: false,
      // SRP only: the password never leaves the browser. Refresh-token sign-in is always allowed by Cognito.
      authFlows: { userSrp: true },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // Short-lived ID and access tokens: a token can't be revoked once issued, so this bounds how long one outlives
      // a sign-out (the API refuses a deleted account at once anyway). The web app renews them from the refresh
      // token before each call (Amplify's fetchAuthSession) and again on a 401, so nobody notices.
      idTokenValidity: ID_TOKEN_VALIDITY,
      accessTokenValidity: ID_TOKEN_VALIDITY,
      disableOAuth: !google,
      oAuth: google
        ? {
            flows: { authorizationCodeGrant: true },
            scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
            callbackUrls: returnUrls,
            logoutUrls: returnUrls,
          }
        : undefined,
      supportedIdentityProviders: google
        ? [UserPoolClientIdentityProvider.COGNITO, UserPoolClientIdentityProvider.GOOGLE]
        : [UserPoolClientIdentityProvider.COGNITO],
    });
    if (google) this.webClient.node.addDependency(google);
  }

  /** Lets the hosted UI send users back to one more web origin after sign-in and sign-out. */
  addReturnOrigin(origin: string): void {
    this.returnOrigins.push(origin);
  }

  private addGoogle(google: GoogleSignIn): UserPoolIdentityProviderGoogle {
    return new UserPoolIdentityProviderGoogle(this, 'Google', {
      userPool: this.userPool,
      clientId: google.clientId,
      clientSecretValue: SecretValue.secretsManager(google.clientSecretName),
      scopes: ['openid', 'email', 'profile'],
      attributeMapping: {
        email: ProviderAttribute.GOOGLE_EMAIL,
        emailVerified: ProviderAttribute.GOOGLE_EMAIL_VERIFIED,
        givenName: ProviderAttribute.GOOGLE_GIVEN_NAME,
        familyName: ProviderAttribute.GOOGLE_FAMILY_NAME,
      },
    });
  }
}
