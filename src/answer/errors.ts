/** Bad usage or unreadable input: exit 2 with this one line. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
