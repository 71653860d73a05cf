/**
 * Words the settings site is built from: the catalogue of values (time zones, languages, plans,
 * devices) and, for every label, heading and button, the synonyms an instance draws one of. The
 * first synonym of each list is the canonical word the instructions use, so a policy has to match
 * meaning, not copy the page's wording.
 */

export const SECTIONS = ['profile', 'security', 'notifications', 'privacy', 'billing'] as const;
export type SectionKey = (typeof SECTIONS)[number];

/** Look-alike sections that hold nothing a task asks for (see distractors.ts). */
export const DISTRACTORS = ['signature', 'sounds', 'apps', 'checkup', 'policy', 'plans', 'marketing', 'accessibility'] as const;
export type DistractorKey = (typeof DISTRACTORS)[number];

/** A page of the site below its settings prefix: a section or a distractor with a page of its own. */
export type PageKey = SectionKey | DistractorKey;

export const PAGE_TITLES: Record<PageKey, readonly string[]> = {
  profile: ['Profile', 'Personal info', 'Your profile', 'Account details'],
  security: ['Security', 'Login & security', 'Sign-in and security', 'Password & security'],
  notifications: ['Notifications', 'Notification preferences', 'Alerts', 'Notification settings'],
  privacy: ['Privacy', 'Privacy & data', 'Data and privacy', 'Visibility & data'],
  billing: ['Billing', 'Plan & billing', 'Subscription', 'Payments & plan'],
  signature: ['Email signature', 'Signature'],
  sounds: ['Notification sounds', 'Sounds'],
  apps: ['Connected apps', 'Apps with access', 'Third-party apps'],
  checkup: ['Security checkup', 'Security tips'],
  policy: ['Privacy policy', 'How we use your data'],
  plans: ['Compare plans', 'Plans and pricing'],
  marketing: ['Marketing emails', 'Newsletters', 'Email subscriptions'],
  accessibility: ['Accessibility', 'Display and accessibility'],
};

/** One line under each section's link on the settings home, so a section's contents can be read before opening it. */
export const PAGE_BLURBS: Record<PageKey, string> = {
  profile: 'Your name, email address, phone number, time zone and language.',
  security: 'Password, two-factor authentication and the devices signed in to your account.',
  notifications: 'Which alerts reach you by email, text message or push, and how often you get a digest.',
  privacy: 'Who can see your profile, people you have blocked, and a copy of your data.',
  billing: 'Your plan, payment method, billing email and invoices.',
  signature: 'Text added to the end of messages you send from the app.',
  sounds: 'The sound the app plays when something new arrives.',
  apps: 'Other services you have allowed to use your account.',
  checkup: 'A short list of steps that keep your account safe.',
  policy: 'How we collect, use and store your information.',
  plans: 'Everything each plan includes, side by side.',
  marketing: 'Offers, newsletters and surveys we may send you.',
  accessibility: 'Motion, contrast and text size.',
};

export const HOME_TITLES = ['Account settings', 'Settings', 'Your account', 'Manage your account'];
export const HOME_LINKS = ['Overview', 'All settings', 'Settings home'];
export const SAVED_NOTICES = ['Your changes have been saved.', 'Settings updated.', 'Saved.', 'All changes saved.'];

/** Labels of the forms' fields, by field. */
export const LABELS = {
  displayName: ['Display name', 'Name shown to others', 'Public name', 'Your name'],
  email: ['Email', 'Email address', 'E-mail address', 'Account email'],
  phone: ['Phone', 'Phone number', 'Mobile number', 'Mobile phone'],
  timeZone: ['Time zone', 'Timezone', 'Your time zone', 'Local time zone'],
  language: ['Language', 'Display language', 'Interface language', 'Preferred language'],
  currentPassword: ['Current password', 'Old password', 'Your current password'],
  newPassword: ['New password', 'Choose a new password', 'Password (new)'],
  confirmPassword: ['Confirm new password', 'Repeat new password', 'Type the new password again'],
  twoFactor: ['Two-factor authentication', 'Turn on two-factor authentication', '2-step verification', 'Require a sign-in code (two-factor)'],
  twoFactorMethod: ['How should we send codes?', 'Verification method', 'Receive codes by'],
  digest: ['Digest frequency', 'Summary email', 'How often should we send a summary?', 'Activity digest'],
  visibility: ['Profile visibility', 'Who can see your profile', 'Profile visible to'],
  searchable: ['Let search engines find my profile', 'Show my profile in search results', 'Allow search engines to index my profile'],
  billingEmail: ['Billing email', 'Email for invoices', 'Send receipts to'],
  exportFormat: ['Format', 'File format', 'Export format'],
  signature: ['Email signature', 'Signature for outgoing messages'],
  sound: ['Notification sound', 'Alert sound'],
  reduceMotion: ['Reduce motion', 'Fewer animations'],
  highContrast: ['High contrast', 'Stronger colours'],
  offers: ['Product offers', 'Special offers'],
  partners: ['Offers from partners', 'Partner promotions'],
  surveys: ['Surveys', 'Research invitations'],
} as const;
export type LabelKey = keyof typeof LABELS;

export const BUTTONS = {
  /** Submit buttons of the settings forms; two forms on one page never share one. */
  save: ['Save', 'Save changes', 'Update', 'Apply', 'Save settings', 'Confirm'],
  password: ['Change password', 'Update password', 'Set new password'],
  export: ['Request data export', 'Download my data', 'Request a copy of my data', 'Export my data'],
  signOut: ['Sign out', 'Log out', 'End session', 'Remove device'],
  unblock: ['Unblock', 'Remove block', 'Lift block'],
  removeApp: ['Remove access', 'Disconnect', 'Revoke access'],
  invoices: ['Invoices', 'Billing history', 'Past invoices', 'View all invoices'],
  discard: ['Cancel', 'Discard changes', 'Reset'],
} as const;

export const TWO_FACTOR_METHODS = ['app', 'sms'] as const;
export type TwoFactorMethod = (typeof TWO_FACTOR_METHODS)[number];
export const METHOD_LABELS: Record<TwoFactorMethod, readonly string[]> = {
  app: ['Authenticator app', 'An authenticator app', 'Code from an app'],
  sms: ['Text message (SMS)', 'SMS to my phone', 'Text message'],
};

export const CHANNELS = ['email', 'sms', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];
export const CHANNEL_LABELS: Record<Channel, readonly string[]> = {
  email: ['Email', 'E-mail'],
  sms: ['SMS', 'Text message'],
  push: ['Push', 'App', 'Mobile push'],
};
/** How instructions name a channel: "stop sending me X by SMS", "turn off every push notification". */
export const CHANNEL_WORDS: Record<Channel, { by: string; noun: string }> = {
  email: { by: 'by email', noun: 'email' },
  sms: { by: 'by SMS', noun: 'SMS' },
  push: { by: 'as push notifications', noun: 'push' },
};

export const EVENTS = ['security', 'billing', 'product', 'mentions', 'tips'] as const;
export type EventKey = (typeof EVENTS)[number];
export const EVENT_LABELS: Record<EventKey, readonly string[]> = {
  security: ['Security alerts'],
  billing: ['Billing reminders', 'Payment reminders'],
  product: ['Product updates', 'Product news'],
  mentions: ['Comments and mentions', 'Mentions and replies'],
  tips: ['Tips and tutorials', 'Weekly tips'],
};

export const DIGESTS = ['never', 'daily', 'weekly', 'monthly'] as const;
export type Digest = (typeof DIGESTS)[number];
export const DIGEST_LABELS: Record<Digest, readonly string[]> = {
  never: ['Never', 'Off', "Don't send"],
  daily: ['Daily', 'Every day', 'Once a day'],
  weekly: ['Weekly', 'Every week', 'Once a week'],
  monthly: ['Monthly', 'Every month', 'Once a month'],
};

export const VISIBILITIES = ['everyone', 'contacts', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const VISIBILITY_LABELS: Record<Visibility, readonly string[]> = {
  everyone: ['Everyone', 'Public (everyone)', 'Anyone'],
  contacts: ['Contacts only', 'My contacts', 'Only contacts'],
  private: ['Only me', 'Private (only me)', 'Just me'],
};
/** How instructions say who may see the profile. */
export const VISIBILITY_WORDS: Record<Visibility, string> = { everyone: 'everyone', contacts: 'my contacts only', private: 'only me' };

export const EXPORT_FORMATS = ['json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_LABELS: Record<ExportFormat, readonly string[]> = {
  json: ['JSON', 'JSON (for developers)'],
  csv: ['CSV', 'CSV (spreadsheet)'],
};

export interface TimeZone {
  id: string;
  name: string;
  offset: string;
  city: string;
}
export const TIME_ZONES: readonly TimeZone[] = [
  { id: 'America/Los_Angeles', name: 'Pacific Time', offset: 'UTC-08:00', city: 'Los Angeles' },
  { id: 'America/Denver', name: 'Mountain Time', offset: 'UTC-07:00', city: 'Denver' },
  { id: 'America/Chicago', name: 'Central Time', offset: 'UTC-06:00', city: 'Chicago' },
  { id: 'America/New_York', name: 'Eastern Time', offset: 'UTC-05:00', city: 'New York' },
  { id: 'America/Halifax', name: 'Atlantic Time', offset: 'UTC-04:00', city: 'Halifax' },
  { id: 'Europe/London', name: 'Greenwich Mean Time', offset: 'UTC+00:00', city: 'London' },
  { id: 'Europe/Berlin', name: 'Central European Time', offset: 'UTC+01:00', city: 'Berlin' },
  { id: 'Europe/Athens', name: 'Eastern European Time', offset: 'UTC+02:00', city: 'Athens' },
  { id: 'Asia/Kolkata', name: 'India Standard Time', offset: 'UTC+05:30', city: 'Mumbai' },
  { id: 'Asia/Shanghai', name: 'China Standard Time', offset: 'UTC+08:00', city: 'Shanghai' },
  { id: 'Asia/Tokyo', name: 'Japan Standard Time', offset: 'UTC+09:00', city: 'Tokyo' },
  { id: 'Australia/Sydney', name: 'Australian Eastern Time', offset: 'UTC+10:00', city: 'Sydney' },
];
/** Three ways an option can show a zone; every one contains the name the instruction uses. */
export const TIME_ZONE_FORMATS = [
  (z: TimeZone) => `${z.name} (${z.offset})`,
  (z: TimeZone) => `(${z.offset}) ${z.name}`,
  (z: TimeZone) => `${z.name} - ${z.city}`,
] as const;

export interface Language {
  id: string;
  english: string;
  native: string;
}
export const LANGUAGES: readonly Language[] = [
  { id: 'en-US', english: 'English (US)', native: 'English (US)' },
  { id: 'en-GB', english: 'English (UK)', native: 'English (UK)' },
  { id: 'de', english: 'German', native: 'Deutsch' },
  { id: 'es', english: 'Spanish', native: 'Español' },
  { id: 'fr', english: 'French', native: 'Français' },
  { id: 'it', english: 'Italian', native: 'Italiano' },
  { id: 'pt', english: 'Portuguese', native: 'Português' },
  { id: 'nl', english: 'Dutch', native: 'Nederlands' },
  { id: 'pl', english: 'Polish', native: 'Polski' },
  { id: 'sv', english: 'Swedish', native: 'Svenska' },
];
/** Three ways an option can show a language; every one contains its English name. */
export const LANGUAGE_FORMATS = [
  (l: Language) => l.english,
  (l: Language) => (l.english === l.native ? l.english : `${l.english} (${l.native})`),
  (l: Language) => (l.english === l.native ? l.english : `${l.native} (${l.english})`),
] as const;

export const PLANS = [
  { name: 'Basic', monthly: 500 },
  { name: 'Plus', monthly: 900 },
  { name: 'Pro', monthly: 1500 },
  { name: 'Premium', monthly: 2000 },
  { name: 'Business', monthly: 3500 },
  { name: 'Team', monthly: 4800 },
] as const;

export const DEVICES = ['iPhone 15', 'Pixel 8', 'MacBook Air', 'Windows PC', 'iPad', 'Galaxy Tab', 'ThinkPad', 'Chromebook'];
export const BROWSERS = ['Safari', 'Chrome', 'Firefox', 'Edge', 'the mobile app'];
export const CITIES = ['Lisbon', 'Denver', 'Toronto', 'Osaka', 'Nairobi', 'Krakow', 'Austin', 'Dublin', 'Melbourne', 'Porto', 'Leeds', 'Seattle'];
export const CARD_BRANDS = ['Visa', 'Mastercard', 'American Express'];
export const APPS = ['Slack', 'Zapier', 'Trello', 'Dropbox', 'Notion', 'Calendly'];

export const FIRST_NAMES = ['Ava', 'Mateo', 'Priya', 'Jonas', 'Leila', 'Tomasz', 'Grace', 'Kofi', 'Ingrid', 'Hiro', 'Sofia', 'Daniel', 'Amara', 'Luca', 'Noor', 'Elliot'];
export const LAST_NAMES = ['Lindqvist', 'Okoro', 'Castellano', 'Brandt', 'Nakamura', 'Fitzgerald', 'Haddad', 'Kowalski', 'Moreau', 'Achterberg', 'Reyes', 'Osei', 'Varga', 'Quinn'];
export const MAIL_DOMAINS = ['example.com', 'mail.example.org', 'example.net'];
export const SITE_NAMES = ['Northbeam', 'Kitewell', 'Orbitly', 'Parcel Cloud', 'Lumenote', 'Tandemly'];
