// The reference's tables (fields of a schema, responses of an operation):
// one look, horizontally scrollable on a phone instead of widening the page.

export function DocsTable({ columns, className = "", children }: { columns: string[]; className?: string; children: React.ReactNode }) {
  return (
    <div className={`overflow-x-auto ${className}`}>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-stone-200 text-stone-600">
            {columns.map((column, i) => (
              <th key={column} scope="col" className={`py-1 font-medium ${i < columns.length - 1 ? "pr-4" : ""}`}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
