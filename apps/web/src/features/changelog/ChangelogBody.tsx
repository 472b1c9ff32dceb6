import { changelogBlocks } from '@freight/contracts/changelog-blocks';

/** An entry's plain text as paragraphs and lists; shown as text, so nothing in it can run. */
export function ChangelogBody({ body }: { body: string }) {
  return (
    <div className="changelog-body">
      {changelogBlocks(body).map((block, i) =>
        block.kind === 'list' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no identity beyond their place
          <ul key={i}>
            {block.items.map((item, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: as above
              <li key={j}>{item}</li>
            ))}
          </ul>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <p key={i}>{block.text}</p>
        ),
      )}
    </div>
  );
}
