/** A tier's name after a swatch of its colour, as the tier lists and the members-by-tier table show it. */
export function TierName(props: { name: string; color: string }) {
  return (
    <span class="tier-name">
      <span
        class="swatch"
        aria-hidden="true"
        ref={(el) => {
          if (el) el.style.background = props.color;
        }}
      />
      {props.name}
    </span>
  );
}
