/**
 * The one rule of overdue documents: a document still open (an unpaid invoice, a pending bill) is
 * overdue once `today` is past its due date. It is reported, never stored, so it needs no job to
 * keep it true.
 */
export const isOverdue = (status: string, dueDate: string, today: string, openStatus: string): boolean =>
  status === openStatus && dueDate < today;
