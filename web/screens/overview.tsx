export default function Overview() {
  return <h1>Overview</h1>;
}
