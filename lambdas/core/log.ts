// Structured JSON log lines (CloudWatch in the cloud, the terminal locally). Errors are logged with their stack;
// nothing here ever logs headers, query strings or bodies, so tokens never reach a log line.
type Fields = Record<string, unknown>;

function write(level: 'info' | 'warn' | 'error', message: string, fields: Fields = {}): void {
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
