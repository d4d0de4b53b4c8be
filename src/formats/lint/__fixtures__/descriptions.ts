/**
 * Parameter descriptions as real MCP servers and API wrappers write them, each
 * labelled by hand: `closed` when the text gives the complete set of values the
 * parameter takes (so an `enum` would lose nothing), `open` when it does not
 * (examples, prose with "either … or" between parameters, formats, ranges).
 * tw/prefer-enum's precision and recall are measured on this set
 * (`prefer-enum-precision.test.ts`).
 * @module
 */

export interface LabelledDescription {
  description: string;
  closed: boolean;
}

export const LABELLED_DESCRIPTIONS: readonly LabelledDescription[] = [
  // closed lists
  { description: 'Sort direction, one of: asc, desc', closed: true },
  { description: 'One of "open", "closed" or "all". Defaults to "open".', closed: true },
  { description: 'Possible values: created, updated, comments', closed: true },
  { description: 'Allowed values are public, private, internal.', closed: true },
  { description: 'Either metric or imperial', closed: true },
  { description: 'Color theme, one of light, dark, system', closed: true },
  { description: 'Sort order of lists: asc|desc', closed: true },
  { description: 'The merge method to use: merge | squash | rebase', closed: true },
  { description: "Filter by state ('open', 'closed', 'all')", closed: true },
  { description: 'Must be one of `low`, `medium`, `high`.', closed: true },
  { description: 'Valid options: json, csv, xml', closed: true },
  { description: 'Choose from: daily, weekly, monthly', closed: true },
  { description: 'Whether to return "full" or "summary" results.', closed: true },
  { description: 'Response format. Accepted values: markdown, html, text.', closed: true },
  { description: 'The HTTP method (GET, POST, PUT, PATCH or DELETE).', closed: true },
  { description: 'Either "user" or "org".', closed: true },
  { description: 'Can be one of: all, owner, member. Default: owner', closed: true },
  { description: 'Type of search: "code", "issues" or "repositories"', closed: true },
  { description: 'Supported values: png, jpeg', closed: true },
  { description: 'Visibility of the gist; must be public or secret', closed: true },
  { description: 'Status filter: "active" | "archived"', closed: true },
  { description: 'Granularity of the data points. Options: hour, day, week.', closed: true },
  { description: 'Set to "asc" or "desc".', closed: true },
  { description: 'Page orientation: portrait or landscape.', closed: true },
  // open: examples, prose, formats
  { description: 'Search text or regex pattern. Provide either text or regex, not both.', closed: false },
  { description: "Programming language of the snippet, e.g. 'python', 'javascript', 'go'", closed: false },
  { description: 'Labels to filter by, such as "bug", "enhancement"', closed: false },
  { description: 'A CSS selector, for example "#main" or ".item > a".', closed: false },
  { description: 'Timezone name like "Europe/Paris" or "UTC".', closed: false },
  { description: 'The file path, either absolute or relative to the workspace root.', closed: false },
  { description: 'Name of the channel (without the #), e.g. general or random.', closed: false },
  { description: 'Git reference: a branch name, tag or commit SHA.', closed: false },
  { description: 'The SQL query to run. Only SELECT statements are allowed.', closed: false },
  { description: 'Date in YYYY-MM-DD format, or "today".', closed: false },
  { description: 'Either the username or the email address of the user.', closed: false },
  { description: 'Comma-separated list of fields to return, for instance "id,name,email".', closed: false },
  { description: 'Model to use (for example gpt-4o or claude-sonnet); any model the account can access.', closed: false },
  { description: 'Free-text search query. Supports operators like AND, OR and NOT.', closed: false },
  { description: 'Optional. A Slack user id such as U12345678 or W12345678.', closed: false },
  { description: 'Path to the directory to list; use "." for the current directory.', closed: false },
  { description: 'Commit message, either one line or a subject and a body.', closed: false },
  { description: 'Max number of results (1-100).', closed: false },
  { description: 'Glob pattern such as "*.ts" or "src/**/*.js"', closed: false },
  { description: 'Text to type into the focused element.', closed: false },
  { description: 'Cron expression, e.g. "0 9 * * 1".', closed: false },
  { description: 'URL to fetch. Either http or https URLs work.', closed: false },
  { description: 'Repository owner (a user or an organization)', closed: false },
  { description: 'Branch to create the pull request from, or "main" when not given.', closed: false },
  { description: 'The title of the issue; e.g. "Crash on start"', closed: false },
  { description: 'Body text in markdown. You can use **bold**, _italic_ or `code`.', closed: false },
  { description: 'Either a file path or a URL pointing to the image.', closed: false },
  { description: 'The issue number or the pull request number.', closed: false },
  { description: 'Accepts any IANA timezone, for example "America/New_York", "Asia/Tokyo".', closed: false },
  { description: 'Tags to add, separated by commas (e.g. urgent, billing).', closed: false },
  { description: 'Resolution like 1920x1080 or 1280x720.', closed: false },
  { description: 'Search scope: "repo:owner/name" or "org:name" qualifiers may be combined.', closed: false },
];
