// Structured JSON log lines (CloudWatch in the cloud, the terminal locally). Errors are logged with their stack;
// nothing here ever logs headers, query strings or bodies, so tokens never reach a log line.
type Fields = Record<string, unknown>;
type Level = 'info' | 'warn' | 'error';

const RANK: Record<Level, number> = { info: 0, warn: 1, error: 2 };
/** LOG_LEVEL=warn keeps the info lines out (the test runs set it); the default logs everything. */
const threshold = RANK[(process.env.LOG_LEVEL as Level | undefined) ?? 'info'] ?? 0;

function write(level: Level, message: string, fields: Fields = {}): void {
  if (RANK[level] < threshold) return;
  const line: Fields = { level, message, ...fields };
  if (fields.error instanceof Error) {
    line.error = { name: fields.error.name, message: fields.error.message, stack: fields.error.stack };
  }
  (level === 'error' ? console.error : console.log)(JSON.stringify(line));
}

export const log = {
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};
